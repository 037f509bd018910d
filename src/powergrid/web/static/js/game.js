// The game page: keeps the latest view, talks to the server, redraws every panel.
import { Board } from "./board.js";
import { lineChart } from "./charts.js";
import {
  ApiError, PLAYER_COLOURS, api, elektro, fitBetweenBars, gameTitle, h, mapName, playerChip, playerName, rememberSeat, roundPills, seatsHeld,
  toast, winnersLine,
} from "./common.js";
import { formatNumber, listOf, setUpLanguage, t, tn, withNodes } from "./i18n.js";
import { LogFolder, actionNodes, entryLine } from "./log.js";
import { setUpRules } from "./rules.js";
import { analysisPanel, clearHintMarks, hintBox } from "./coach.js";
import { drawClocks, setUpClocks, standsIn } from "./clocks.js";
import { renderDecision, waitingFor, waitingPanel } from "./decisions.js";
import { changesBetween, showChanges } from "./changes.js";
import { renderPlantMarket, renderResourceMarket } from "./markets.js";
import { renderPlayers } from "./players.js";
import { setUpSocial } from "./social.js";
import { renderStakes } from "./stakes.js";
import { drawUndo, setUpUndo, undoLine } from "./undo.js";
import { ordersBox, setUpOrders } from "./orders.js";
import { endSummary, playAgain } from "./summary.js";

const gameId = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop());
const $ = (id) => document.getElementById(id);

const game = {
  seats: [],        // public seat list (kind, bot)
  held: {},         // seat -> token held in this browser
  seat: null,       // the seat shown (null: spectator)
  follow: true,     // hot-seat: switch to whichever held seat is to act
  version: -1,
  message: null,    // the latest {state, to_act, legal, build_costs, default_power}
  mapInfo: null,
  board: null,
  busy: false,      // sending a sequence of actions: redraw the decision form only after the last
  acting: false,    // busy with this page's own actions (not an undo)
  onIdle: null,     // what to do once they are answered (an Undo pressed meanwhile)
  socket: null,
  socketSeat: undefined,
  socketLive: false, // the seat's socket is authenticated (its first view came): actions go over it
  pending: new Map(), // id of an action sent over the socket -> {resolve, reject, timer}
  nextId: 1,
  retry: 0,
  endShown: false,
  otherUndo: null,  // hot-seat: {seat, version, actions} another held seat may take back
  decisionKey: "",
  cityHandler: null,
  log: { start: 0, lines: [], pinned: true, unseen: 0, loading: false },
};

function readUrlSeat() {
  // Seat links carry the token in the fragment (#seat=1&token=…), never sent to the server; older ?token= links still work.
  const params = new URLSearchParams(window.location.search);
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const seat = fragment.get("seat") ?? params.get("seat");
  const token = fragment.get("token") ?? params.get("token");
  if (seat !== null && token) {
    rememberSeat(gameId, Number(seat), token);
    // Keep the token out of the address bar (and of screenshots); it lives in localStorage.
    params.delete("token");
    params.set("seat", seat);
    history.replaceState(null, "", `${window.location.pathname}?${params}`);
  }
  return seat === null ? null : Number(seat);
}

function heldSeats() {
  return new Set(Object.keys(game.held).map(Number));
}

async function start() {
  const wanted = readUrlSeat();
  game.held = seatsHeld(gameId);
  const held = heldSeats();
  game.seat = wanted !== null && held.has(wanted) ? wanted : held.size ? Math.min(...held) : null;
  let info;
  try {
    info = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (err) {
    $("decision").replaceChildren(h("div", { class: "decision" }, h("h2", {}, t("Game not found")), h("p", { class: "hint" }, err.message),
      h("a", { class: "btn primary", href: "/" }, t("Back to the lobby"))));
    return;
  }
  game.seats = info.seats || [];
  const map = info.state.config.map;
  game.mapInfo = await api(`/api/maps/${encodeURIComponent(map)}`);
  $("game-title").textContent = gameTitle(mapName(game.mapInfo.name || map), info.state.players.length, info.state.config.variant);
  if (info.seeded) $("game-title").append(" ", h("span", { class: "status-badge status-seeded", title: t("The creator chose this game's seed (which fixes the deck order).") }, t("seeded")));
  document.title = t("Power Grid — {map}", { map: mapName(map) });
  // names, chat, the settings menu and the your-turn alerts (social.js)
  game.social = setUpSocial({ game, gameId, redraw: () => { if (game.message) accept(game.message, null, true); } });
  game.social.alerts.setTitle(document.title);
  game.board = new Board($("board"), game.mapInfo, { onCityClick: (name) => game.cityHandler && game.cityHandler(name) });
  game.board.setRegions(info.state.regions);
  $("replay-link").href = `/replay/${encodeURIComponent(gameId)}`;
  setUpTabs();
  setUpLog();
  setUpUndo({ game, gameId, accept, loadView, switchSeat, setBusy, redraw: () => { game.decisionKey = ""; if (game.message) accept(game.message, null, true); } });
  setUpClocks({ game, gameId, accept });
  setUpOrders({ game, gameId, makeCtx: (overrides) => ({ ...decisionCtx(game.message.state), ...overrides }) });
  await loadView();
  connect();
  $("follow").checked = game.follow;
  $("follow").addEventListener("change", (event) => { game.follow = event.target.checked; });
  $("show-end").addEventListener("click", () => showEnd(true));
}


/** Phones: one panel at a time under the top bar (the decision panel stays at the bottom). */
function setUpTabs() {
  for (const button of document.querySelectorAll("#phone-tabs button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  fitBetweenBars();
}

function showTab(tab) {
  document.body.dataset.tab = tab;
  for (const button of document.querySelectorAll("#phone-tabs button")) button.setAttribute("aria-pressed", String(button.dataset.tab === tab));
  if (tab === "log") scrollLogToEnd();
}


async function loadView() {
  const message = game.seat === null
    ? await api(`/api/games/${encodeURIComponent(gameId)}`)
    : await api(`/api/games/${encodeURIComponent(gameId)}/view?seat=${game.seat}`, { token: game.held[game.seat] });
  accept(message, null, true);
}

// --- live updates ---------------------------------------------------------------------------------
function connect() {
  if (game.socket) {
    game.socket.onclose = null;
    game.socket.close();
    dropPending();
  }
  const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
  const params = new URLSearchParams();
  if (game.seat !== null) params.set("seat", game.seat);  // the token goes in the first message, not the URL
  if (game.version >= 0) params.set("since", game.version);
  const socket = new WebSocket(`${proto}//${window.location.host}/api/games/${encodeURIComponent(gameId)}/ws?${params}`);
  game.socket = socket;
  game.socketSeat = game.seat;
  const token = game.seat !== null ? game.held[game.seat] : null;
  game.socketLive = false;
  socket.onopen = () => {
    if (token) socket.send(JSON.stringify({ type: "auth", token }));
    game.social.connected();  // chat written while the socket was away (or before this page)
    game.retry = 0;
  };
  socket.onmessage = (event) => {
    let data;
    try {
      data = JSON.parse(event.data);
    } catch (err) {
      return;
    }
    if (game.socket !== socket) return;
    if (game.social.onSocket(data)) return;
    if (data.type === "state") {
      // live once the seat's views come over the socket (its first one answers the auth): from then
      // on the page's actions go over it too
      if (!game.socketLive) setConnection("live");
      game.socketLive = true;
      accept(data, data.last);
    } else if ((data.type === "done" || data.type === "error") && game.pending.has(data.id)) {
      answered(data);
    } else if (data.type === "error") {
      toast(data.error ? new ApiError(0, data.error.code, data.error.message).message : t("The server refused."), "error");
    }
  };
  socket.onclose = (event) => {
    if (game.socket === socket) {
      game.socketLive = false;
      dropPending();
    }
    setConnection("offline");
    if (event.code === 4401 || event.code === 4403) {
      // This browser's key for the seat no longer works (the seat was claimed elsewhere): watch instead.
      toast(t("This browser can no longer play {player}; you are watching.", { player: playerName(game.seat) }), "error", 8000);
      delete game.held[game.seat];
      game.seat = null;
      loadView().catch(() => {}).finally(connect);
      return;
    }
    const delay = Math.min(8000, 500 * 2 ** game.retry++);
    setTimeout(() => { if (game.socket === socket) connect(); }, delay);
  };
}

/** An action over the seat's socket (no HTTP request): resolves with {type: "done", version} once
 * its new view has arrived, rejects with the refusal (the same codes as a POST). */
function sendOverSocket(text) {
  const id = game.nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      game.pending.delete(id);
      reject(new ApiError(0, "network", t("The server did not answer in time.")));
    }, 15000);
    game.pending.set(id, { resolve, reject, timer });
    game.socket.send(JSON.stringify({ type: "action", action: text, version: game.version, id }));
  });
}

function answered(data) {
  const waiting = game.pending.get(data.id);
  game.pending.delete(data.id);
  clearTimeout(waiting.timer);
  if (data.type === "done") waiting.resolve(data);
  else {
    const error = data.error || {};
    waiting.reject(new ApiError(error.status || 409, error.code || "refused", error.message || t("The server refused."), error));
  }
}

function dropPending() {
  for (const waiting of game.pending.values()) {
    clearTimeout(waiting.timer);
    waiting.reject(new ApiError(0, "network", t("The connection dropped; here is the latest position.")));
  }
  game.pending.clear();
}

function socketReady() {
  return game.socketLive && game.socket && game.socket.readyState === WebSocket.OPEN && game.socketSeat === game.seat;
}

function setConnection(status) {
  const node = $("connection");
  node.className = `connection ${status}`;
  node.title = status === "live" ? t("live: moves appear as they happen") : t("reconnecting…");
  node.textContent = status === "live" ? t("live") : t("reconnecting");
}

/** Take a message with a view (REST reply or WebSocket push); ignore anything older than we have. */
function accept(message, last, force = false) {
  if (!message || !message.state) return;
  // A view for another seat (the old seat's socket or reply, after switching seats) is not ours to show.
  if (message.seat !== undefined && message.seat !== game.seat) return;
  if (message.version < game.version && !force) return;
  const newer = message.version > game.version;
  const before = game.message && game.message.state;
  game.version = message.version;
  if (message.seats) game.seats = message.seats;
  game.message = message;
  game.social.viewed(message);
  draw();
  if (newer && before) showChanges(changesBetween(before, message.state), game.board);
  if (newer && message.last && message.last.action === "undo") noteUndo(message.last);
  if (last && newer) highlight(last);
  // a page opened (or reopened) mid-game says the move before it too, without lighting it up
  else if (!before && message.last && message.last.action !== "undo") showLatest([actionNodes(message.last.seat, message.last.action)]);
  const held = heldSeats();
  const toAct = message.to_act;
  if (game.follow && !game.busy && toAct !== null && toAct !== undefined && held.has(toAct) && toAct !== game.seat) {
    switchSeat(toAct, true);
  }
}

async function switchSeat(seat, announce = false) {
  game.seat = seat;
  game.decisionKey = "";
  try {
    await loadView();
  } catch (err) {
    toast(err.message, "error");
  }
  connect();
  if (announce) toast(t("Now playing {player}", { player: playerName(seat) }), "info", 2500);
}

// --- sending actions ------------------------------------------------------------------------------
async function act(text) {
  return actAll([text]);
}

/** Send actions one after another (one purchase per resource, then done...); stop at a refusal. */
async function actAll(texts) {
  if (game.busy) return null;
  game.busy = true;
  game.acting = true;
  setBusy(true);
  let reply = null;
  try {
    for (const text of texts) {
      const legal = (game.message && game.message.legal) || [];
      if (reply && !legal.includes(text)) break;
      if (socketReady()) {
        reply = await sendOverSocket(text); // the new view came on the socket before the answer
      } else {
        reply = await api(`/api/games/${encodeURIComponent(gameId)}/actions`, {
          method: "POST",
          token: game.held[game.seat],
          body: { seat: game.seat, action: text, version: game.version },
        });
        accept(reply, null);
      }
    }
  } catch (err) {
    game.onIdle = null;  // refused: an Undo pressed meanwhile would take back an older action
    showRefusal(err);
    try {
      await loadView();
    } catch (again) {
      /* the socket will bring the state */
    }
  } finally {
    game.busy = false;
    game.acting = false;
    setBusy(false);
    game.decisionKey = "";
    if (game.message) accept(game.message, null, true);
    const next = game.onIdle;  // an Undo asked for while this was on its way (undo.js)
    game.onIdle = null;
    if (next) next();
  }
  return reply;
}

/** A refused move: what it means here, then the error's own message. */
function showRefusal(err) {
  const words = {
    stale_version: t("The game moved on before your move arrived; here is the latest position."),
    not_your_turn: t("It is not your turn any more."),
    game_over: t("The game is over."),
    wrong_token: t("This browser's key for the seat is not valid."),
    missing_token: t("This browser holds no key for that seat."),
  }[err.code];
  toast(words ? t("{what} ({why})", { what: words, why: err.message }) : t("Refused: {why}", { why: err.message }), "error", 6000);
}

function setBusy(busy) {
  document.body.classList.toggle("busy", busy);
  $("undo").disabled = busy || $("undo").disabled;
  for (const node of $("decision").querySelectorAll("button, input")) node.disabled = busy || node.disabled;
}

// --- drawing --------------------------------------------------------------------------------------
/** Houses per city in slot order, from the build actions in the event log. */
function housesByCity(view) {
  if (view.houses) return view.houses; // the server sends slot order; older servers did not
  const houses = {};
  for (const event of view.log || []) {
    if (event[0] === "act" && typeof event[2] === "string" && event[2].startsWith("build ")) {
      const city = event[2].slice(6);
      (houses[city] = houses[city] || []).push(event[1]);
    }
  }
  // The log may be trimmed; trust the players' city lists and keep the order where known.
  view.players.forEach((player, seat) => {
    for (const city of player.cities) {
      const list = (houses[city] = houses[city] || []);
      if (!list.includes(seat)) list.push(seat);
    }
  });
  for (const city of Object.keys(houses)) {
    houses[city] = houses[city].filter((seat) => view.players[seat].cities.includes(city));
  }
  return houses;
}

function draw() {
  const message = game.message;
  const view = message.state;
  const held = heldSeats();
  const toAct = message.to_act ?? null;
  const houses = housesByCity(view);
  const openSlots = Math.min(3, view.step || 1);
  game.board.setHouses(houses, openSlots);

  $("round-info").replaceChildren(...roundPills(view));
  const status = $("turn-status");
  if (message.game_over || view.game_over || toAct === null) {
    const winners = view.winners || [];
    status.replaceChildren(...(winners.length ? winnersLine(winners, "status") : []));
  }
  else if (toAct === game.seat) status.replaceChildren(h("span", { class: "your-turn" }, waitingFor(view, "mine")));
  else status.replaceChildren(...withNodes(waitingFor(view, "to"), { player: playerChip(toAct) }));

  drawSeatSwitcher(held, toAct);
  renderStakes($("stakes"), view, { toAct, mapInfo: game.mapInfo, houses });
  renderPlayers($("players"), view, { seats: game.seats, mySeats: held, currentSeat: game.seat, toAct, flashSeat: game.flashSeat });
  drawClocks(game);
  renderPlantMarket($("plant-market"), view, { auctionPlant: view.auction && view.auction.plant });
  $("step-badge").textContent = t("Step {step}", { step: view.step });
  renderResourceMarket($("resource-market"), view);
  drawLog(view);
  drawDecision(view, toAct);
  drawUndo(game, gameId);
  if (view.game_over || message.game_over) showEnd(false);
}

function drawSeatSwitcher(held, toAct) {
  const box = $("seat-switcher");
  if (!held.size) {
    box.replaceChildren(h("span", { class: "muted" }, t("Watching")));
    return;
  }
  const buttons = [...held].sort().map((seat) => h("button", {
    type: "button",
    class: `seat-btn${seat === game.seat ? " active" : ""}${seat === toAct ? " to-act" : ""}`,
    style: `--pc:${PLAYER_COLOURS[seat]}`,
    title: seat === toAct ? t("{player} is to act", { player: playerName(seat) }) : t("play as {player}", { player: playerName(seat) }),
    "aria-pressed": String(seat === game.seat),
    onclick: () => { if (seat !== game.seat) switchSeat(seat); },
  }, h("i", { class: "pdot" }), playerName(seat)));
  box.replaceChildren(h("span", { class: "muted" }, held.size > 1 ? t("Your seats") : t("You are")), ...buttons);
  $("follow-box").hidden = held.size < 2;
}

function drawDecision(view, toAct) {
  if (game.busy) return;
  const message = game.message;
  const key = `${game.version}:${game.seat}:${toAct}`;
  if (key === game.decisionKey) return;
  game.decisionKey = key;
  $("decision").dataset.key = key;
  game.cityHandler = null;
  game.board.setBuildChoices({}, []);
  const box = $("decision");
  const mine = game.seat !== null && toAct === game.seat && (message.legal || []).length && !standsIn(message, game.seat);
  document.body.dataset.decision = mine ? "" : "waiting";
  if (!mine) {
    clearHintMarks();
    box.replaceChildren(waitingPanel(view, toAct, game.seats, game.seat === null), ordersBox("waiting"));
    box.classList.remove("mine");
    return;
  }
  const form = renderDecision(decisionCtx(view));
  document.body.dataset.decision = form.dataset.decision;
  box.replaceChildren(h("div", { class: "acting-as", style: `--pc:${PLAYER_COLOURS[game.seat]}` }, ...withNodes(t("Playing as {player}"), { player: playerChip(game.seat) })), form,
    ordersBox(form.dataset.decision),
    hintBox({ gameId, seat: game.seat, version: game.version, token: game.held[game.seat], actAll }));
  box.classList.add("mine");
  box.classList.remove("flash");
  void box.offsetWidth;
  box.classList.add("flash");
  // Keyboard players start on the new decision (not on phones: focusing would scroll the page).
  const active = document.activeElement;
  if (window.innerWidth > 700 && (!active || active === document.body || box.contains(active))) {
    const first = box.querySelector("[data-decision] input:not([disabled])") || box.querySelector("[data-decision] button:not([disabled])");
    if (first) first.focus({ preventScroll: true });
  }
}

/** What the decision forms need (the seat's own decision; orders.js overrides legal and act). */
function decisionCtx(view) {
  const message = game.message;
  return {
    view,
    seat: game.seat,
    legal: message.legal,
    buildCosts: message.build_costs,
    defaultPower: message.default_power,
    mapInfo: game.mapInfo,
    board: game.board,
    houses: housesByCity(view),
    openSlots: Math.min(3, view.step || 1),
    act,
    actAll,
    onCityClick: (fn) => { game.cityHandler = fn; },
  };
}


function setUpLog() {
  const box = $("log");
  // Follow new entries unless the reader has scrolled up; then offer a way back to the latest.
  // Only the reader unpins the log: scrolls the page causes itself (new entries, the "earlier"
  // button, scroll anchoring, a panel growing) never do.
  let touched = 0;
  for (const kind of ["wheel", "touchstart", "touchmove", "pointerdown", "keydown"]) {
    box.addEventListener(kind, () => { touched = performance.now(); }, { passive: true });
  }
  box.addEventListener("scroll", () => {
    if (!box.clientHeight) return;
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 24;
    if (atEnd) {
      if (!game.log.pinned || game.log.unseen) {
        game.log.pinned = true;
        game.log.unseen = 0;
        drawLogButtons();
      }
    } else if (performance.now() - touched < 1500 && game.log.pinned) {
      game.log.pinned = false;
      drawLogButtons();
    }
  });
  // The log's box changes size when the panels around it do (the latest move, a player's plants,
  // a phone's tab): a pinned log stays at its newest entry.
  if (window.ResizeObserver) new ResizeObserver(() => { if (game.log.pinned) scrollLogToEnd(); }).observe(box);
  $("log-latest").addEventListener("click", () => {
    game.log.pinned = true;
    game.log.unseen = 0;
    scrollLogToEnd();
    drawLogButtons();
  });
}

function scrollLogToEnd() {
  const box = $("log");
  box.scrollTop = box.scrollHeight;
}

function drawLogButtons() {
  const latest = $("log-latest");
  latest.hidden = game.log.pinned;
  $("log").dataset.pinned = String(game.log.pinned);
  latest.textContent = game.log.unseen
    ? tn("{n} new ↓ jump to latest", "{n} new ↓ jump to latest", game.log.unseen) : t("Jump to latest ↓");
  const box = $("log");
  let earlier = box.querySelector(".log-earlier");
  if (game.log.start > 0) {
    if (!earlier) {
      earlier = h("li", { class: "log-earlier" }, h("button", { type: "button", class: "btn small ghost", onclick: loadEarlierLog }, ""));
      box.prepend(earlier);
    }
    earlier.querySelector("button").textContent = game.log.loading ? t("Loading…")
      : tn("Show earlier entries ({n} more)", "Show earlier entries ({n} more)", game.log.start);
  } else if (earlier) earlier.remove();
  $("log-count").textContent = game.log.total ? tn("{n} entry", "{n} entries", game.log.total) : "";
  $("log-count").dataset.total = String(game.log.total || 0);
}

/** Page back through the whole log: the 200 entries before the first one shown. */
async function loadEarlierLog() {
  if (game.log.loading || game.log.start <= 0) return;
  game.log.loading = true;
  drawLogButtons();
  const box = $("log");
  try {
    const page = await api(`/api/games/${encodeURIComponent(gameId)}/log?before=${game.log.start}&limit=200`);
    const older = page.entries.slice(0, Math.max(0, game.log.start - page.start));
    const height = box.scrollHeight;
    const first = box.querySelector("li:not(.log-earlier)");
    const folder = new LogFolder();
    for (const entry of older) box.insertBefore(folder.item(entry, game.mapInfo), first);
    game.log.lines = older.concat(game.log.lines);
    game.log.start = page.start;
    box.scrollTop += box.scrollHeight - height;  // keep the entries the reader was looking at in place
  } catch (err) {
    toast(err.message, "error");
  } finally {
    game.log.loading = false;
    drawLogButtons();
  }
}

/** The log in words: new entries are appended and followed unless the reader scrolled up. */
function drawLog(view) {
  const lines = view.log || [];
  const total = typeof view.log_total === "number" ? view.log_total : lines.length;
  const tailStart = total - lines.length;
  const box = $("log");
  const log = game.log;
  const follow = log.pinned;
  const shownEnd = log.start + log.lines.length;
  if (!log.lines.length || tailStart > shownEnd || total < shownEnd || log.start < 0) {
    // first draw, a gap (missed more than the server keeps), or the log got shorter (undo): start again
    log.folder = new LogFolder();
    box.replaceChildren(...lines.map((entry) => log.folder.item(entry, game.mapInfo)));
    log.lines = lines.slice();
    log.start = tailStart;
    log.fresh = [];
  } else if (total > shownEnd) {
    const fresh = lines.slice(shownEnd - tailStart);
    box.append(...fresh.map((entry) => log.folder.item(entry, game.mapInfo, true)));
    log.fresh = fresh;
    log.lines = log.lines.concat(fresh);
    if (!follow) log.unseen += fresh.length;
  }
  log.total = total;
  if (follow) {
    log.pinned = true;
    log.unseen = 0;
  }
  drawLogButtons();
  if (follow) {
    scrollLogToEnd();
    // and once more after this frame's other redraws (the latest move, the players' boards)
    requestAnimationFrame(() => { if (game.log.pinned) scrollLogToEnd(); });
  }
}

/** An action taken back: the log returned to before it; say so at its end. */
function noteUndo(last) {
  $("log").append(undoLine(last));
  if (game.log.pinned) scrollLogToEnd();
}

/**
 * Another player's (or a bot's) move: say it in words above the log (changes light up elsewhere),
 * from the log entries it added (the action and what followed from it), else from its notation.
 */
function highlight(last) {
  if (last.seat === game.seat && !game.busy) return;
  game.flashSeat = last.seat;
  const events = (game.log.fresh || []).filter((entry) => entry[0] !== "summary");
  const lines = events.length ? events.map((entry) => entryLine(entry, game.mapInfo).nodes) : [actionNodes(last.seat, last.action)];
  showLatest(lines);
  flashNode($("last-move"));
  setTimeout(() => { if (game.flashSeat === last.seat) game.flashSeat = undefined; }, 2500);
}

/** The latest move in words, above the log (each line: nodes). */
function showLatest(lines) {
  $("last-move").replaceChildren(...lines.flatMap((nodes, i) => (i ? ["; ", ...nodes] : nodes)));
}

function flashNode(node) {
  if (!node) return;
  node.classList.remove("flash");
  void node.offsetWidth;
  node.classList.add("flash");
}

// --- the end ----------------------------------------------------------------------------------------
function trophy() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 64 64");
  svg.setAttribute("class", "trophy");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = '<path d="M18 8h28v14c0 9-6 16-14 16s-14-7-14-16z" fill="#ffc83d" stroke="#b8860b" stroke-width="2"/>'
    + '<path d="M18 12H9c0 9 4 14 11 15M46 12h9c0 9-4 14-11 15" fill="none" stroke="#b8860b" stroke-width="3"/>'
    + '<rect x="28" y="38" width="8" height="10" fill="#d9a521"/><rect x="19" y="48" width="26" height="7" rx="2" fill="#8a5d34"/>'
    + '<path d="M34 14l-6 9h5l-2 7 6-9h-5z" fill="#fff"/>';
  return svg;
}

/** Final standings: cities powered at the end (the engine's "over" event), then money, then cities. */
function standings(view) {
  const over = (view.log || []).filter((event) => event[0] === "over").pop();
  const final = over && Array.isArray(over[2]) ? over[2] : view.powerable || [];
  return view.players.map((player, seat) => ({ seat, ...player, powered: final[seat] ?? player.powered }))
    .sort((a, b) => b.powered - a.powered || b.money - a.money || b.cities.length - a.cities.length);
}

function showEnd(force) {
  if (game.endShown && !force) return;
  game.endShown = true;
  $("show-end").hidden = false;
  const view = game.message.state;
  const winners = view.winners || [];
  const rows = standings(view);
  const history = view.history || {};
  const count = view.players.length;
  const close = () => overlay.remove();
  const overlay = h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "end-title", id: "end-screen" },
    h("div", { class: "end-card" },
      trophy(),
      h("h2", { id: "end-title" }, ...winnersLine(winners, "title")),
      h("p", { class: "hint" }, tn("After {n} round. Most cities powered wins; ties go to money, then cities.",
        "After {n} rounds. Most cities powered wins; ties go to money, then cities.", view.round)),
      h("table", { class: "standings" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Player")), h("th", {}, t("Powered")), h("th", {}, t("Money")),
          h("th", {}, t("Cities")), h("th", {}, t("Plants")))),
        h("tbody", {}, ...rows.map((row, i) => h("tr", { class: winners.includes(row.seat) ? "winner" : "", "data-seat": row.seat },
          h("td", {}, formatNumber(i + 1)), h("td", {}, playerChip(row.seat, game.held[row.seat] ? " " + t("(you)") : "")),
          h("td", {}, h("b", {}, formatNumber(row.powered))), h("td", {}, elektro(row.money)), h("td", {}, formatNumber(row.cities.length)),
          h("td", {}, listOf(row.plants.map(String), "unit").join("")))))),
      h("div", { class: "charts" },
        history.money && history.money.length ? lineChart(t("Money after each round"), history.money, count) : null,
        history.cities && history.cities.length ? lineChart(t("Cities after each round"), history.cities, count) : null),
      endSummary(gameId, count, game.held),
      playAgain(gameId, game.held),
      analysisPanel(gameId, count),
      h("div", { class: "buttons center" },
        h("a", { class: "btn primary", href: "/" }, t("New game")),
        h("button", { type: "button", class: "btn secondary", onclick: close, "data-action": "look" }, t("Look at the board")),
        h("a", { class: "btn secondary", href: `/replay/${encodeURIComponent(gameId)}`, "data-action": "replay" }, t("Replay the game")),
        h("a", { class: "btn ghost", href: `/api/games/${encodeURIComponent(gameId)}/record`, download: `powergrid-${gameId}.json` }, t("Download the record"))),
    ));
  overlay.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  document.getElementById("end-screen")?.remove();
  document.body.append(overlay);
  overlay.querySelector(".btn.primary").focus();
}

setUpLanguage().then(() => {
  setUpRules(() => game.message && game.message.state);
  return start();
}).catch((err) => toast(err.message || String(err), "error", 10000));
