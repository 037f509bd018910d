// Standing orders: decisions given ahead of your turn, applied by the server as your own actions when
// the turn comes (docs/web.md, Standing orders). Only this seat sees its order.
//   - "Bid up to" a number for the plant on auction (raised by the minimum each time, passed above it);
//   - "Pass every auction left this round" (not in round 1: everybody must buy a plant);
//   - "Power this now" in bureaucracy before your turn;
//   - "Build when my turn comes": the cities picked in the build form, if every price still holds.
import { api, elektro, h, toast } from "./common.js";
import { renderDecision } from "./decisions.js";
import { t, tn } from "./i18n.js";

const state = {
  gameId: null,
  game: null,
  makeCtx: null,   // (overrides) -> the decision forms' context for the seat shown
  fetched: null,   // {version, seat, order, early} from GET .../orders
  box: null,       // the element this module draws into (a new one per decision drawn)
  boxKind: "",     // "waiting", or the kind of the seat's own decision form
  loading: null,
};

export function setUpOrders({ game, gameId, makeCtx }) {
  state.game = game;
  state.gameId = gameId;
  state.makeCtx = makeCtx;
}

function path() {
  return `/api/games/${encodeURIComponent(state.gameId)}/orders`;
}

function token() {
  return state.game.held[state.game.seat];
}

/** The box for the decision panel: the seat's order, and what it may order now. */
export function ordersBox(kind) {
  const box = h("div", { class: "standing-orders", id: "standing-orders" });
  state.box = box;
  state.boxKind = kind;
  const game = state.game;
  const view = game.message && game.message.state;
  if (game.seat === null || !token() || !view || view.game_over) return box;
  const known = state.fetched && state.fetched.seat === game.seat && state.fetched.version === game.version;
  if (known) draw();
  else if ([2, 4, 5].includes(view.phase) || (state.fetched && state.fetched.order)) load();
  return box;
}

async function load() {
  const game = state.game;
  const seat = game.seat;
  const version = game.version;
  try {
    const found = await api(`${path()}?seat=${seat}`, { token: token() });
    if (game.seat !== seat) return;
    state.fetched = { ...found, version: Math.max(found.version, version) };
    draw();
  } catch (err) {
    // the socket's next view tries again
  }
}

async function place(body) {
  try {
    const found = await api(path(), { method: "POST", token: token(), body: { seat: state.game.seat, ...body } });
    state.fetched = { ...found, version: state.game.version };
    draw();
    toast(t("Order placed: it is played for you when your turn comes."), "info", 2500);
  } catch (err) {
    toast(t("Order refused: {reason}", { reason: err.message }), "error", 6000);
    load();
  }
}

async function cancel(order) {
  try {
    const found = await api(`${path()}?seat=${state.game.seat}&order=${order.id}`, { method: "DELETE", token: token() });
    state.fetched = { ...found, version: state.game.version };
  } catch (err) {
    toast(err.message, "error");
    state.fetched = null;
  }
  draw();
  load();
}

function orderWords(order) {
  if (order.kind === "bid_up_to") return t("Bid up to {limit} for this plant", { limit: elektro(order.limit) });
  if (order.kind === "pass_auction") return t("Pass every auction left this round");
  if (order.kind === "power") return t("Power when your turn comes: {choice}", { choice: order.action });
  return tn("Build {n} city when your turn comes: {cities}, for {total}", "Build {n} cities when your turn comes: {cities}, for {total}",
    order.cities.length, { cities: order.cities.join(", "), total: elektro(order.total) });
}

function pendingBox(order) {
  if (order.status === "refused") {
    return h("div", { class: "order-box refused", "data-order": order.kind, role: "status" },
      h("b", {}, t("Your order was not played:")), " ", order.refusal ? order.refusal.message : "",
      h("div", { class: "buttons" }, h("button", { type: "button", class: "btn small secondary", "data-action": "order-ok", onclick: () => cancel(order) }, t("OK"))));
  }
  return h("div", { class: "order-box", "data-order": order.kind, role: "status" },
    h("span", { class: "order-label" }, t("Standing order")), " ", h("b", {}, orderWords(order)),
    h("button", { type: "button", class: "btn small ghost", "data-action": "cancel-order", onclick: () => cancel(order) }, t("Cancel")));
}

function bidUpTo(auction, money) {
  const low = auction.bid + 1;
  const input = h("input", { type: "number", min: low, max: money, value: Math.min(money, low + 5), step: 1, class: "bid-input", "aria-label": t("Bid up to"), "data-order-input": "limit", inputmode: "numeric" });
  const go = () => place({ kind: "bid_up_to", limit: Math.round(Number(input.value)) });
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); go(); } });
  return h("div", { class: "order-row" },
    h("label", { class: "field-label" }, t("Bid up to (raised by the minimum each time it is your turn)")),
    h("div", { class: "bid-control" }, input,
      h("button", { type: "button", class: "btn secondary", "data-action": "bid-up-to", onclick: go }, t("Bid up to"))));
}

function passRest() {
  return h("div", { class: "order-row" },
    h("button", { type: "button", class: "btn ghost", "data-action": "pass-rest", onclick: () => place({ kind: "pass_auction" }),
      title: t("A standing order: you pass whenever an auction of this round comes to you, buying no plant") },
      t("Pass every auction left this round")));
}

/** The power or build form for a seat that is not yet to act; its confirm button places an order. */
function earlyForm(early) {
  const ctx = state.makeCtx({
    legal: early.legal,
    buildCosts: early.build_costs,
    defaultPower: early.default_power,
    act: (text) => place({ kind: "power", action: text }),
    actAll: (texts, prices) => {
      const cities = texts.filter((text) => text.startsWith("build ")).map((text) => text.slice(6));
      if (!cities.length) return null;
      return place({ kind: "build", cities, prices: (prices || []).slice(0, cities.length) });
    },
    orderLabel: early.phase === 5 ? t("Power this now") : t("Build when my turn comes"),
  });
  const form = renderDecision(ctx);
  form.classList.add("early");
  return h("div", { class: "order-row early-form" },
    h("p", { class: "hint" }, early.phase === 5
      ? t("Nobody's choice here depends on another's: choose now, and it is played when your turn comes.")
      : t("Plan your build now: it is played when your turn comes if every price is still the same.")),
    form);
}

function draw() {
  const box = state.box;
  const found = state.fetched;
  if (!box || !found || found.seat !== state.game.seat) return;
  const parts = [];
  if (found.order) parts.push(pendingBox(found.order));
  const early = found.early || {};
  const pending = found.order && found.order.status === "pending";
  if (state.boxKind === "bid" && !pending) {
    const view = state.game.message.state;
    const auction = view.auction || {};
    const money = view.players[state.game.seat].money;
    if (auction.plant && money > auction.bid + 1) parts.push(bidUpTo(auction, money));
  } else if (state.boxKind === "waiting" && !pending) {
    if (early.auction && early.auction.money > early.auction.bid) parts.push(bidUpTo(early.auction, early.auction.money));
    if (early.can_pass_rest) parts.push(passRest());
    if ((early.phase === 4 || early.phase === 5) && early.legal && early.legal.length) parts.push(earlyForm(early));
  } else if (state.boxKind === "open" && !pending && early.can_pass_rest) {
    parts.push(passRest());
  }
  if (state.boxKind === "waiting" && !parts.some((part) => part.classList.contains("early-form"))) {
    state.game.cityHandler = null; // no build form any more: the map's prices go
    state.game.board.setBuildChoices({}, []);
  }
  box.replaceChildren(...parts);
}
