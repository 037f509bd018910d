// The action panel: one form per kind of decision, every choice taken from the `legal` list.
import { connectionCosts } from "./board.js";
import {
  PLAYER_COLOURS, RESOURCES, SLOT_COSTS, append, botName, elektro, h, payment, playerChip, playerName, resourceIcon, resourceName,
} from "./common.js";
import { pt, t, tn, withNodes } from "./i18n.js";
import { plantCard } from "./markets.js";

/** "2coal 1oil" -> [2, 1, 0, 0]; "nothing" -> zeros. */
export function parseFuel(text) {
  const fuel = [0, 0, 0, 0];
  for (const part of (text || "").trim().split(/\s+/)) {
    const match = /^(\d+)([a-z]+)$/.exec(part);
    if (match && RESOURCES.includes(match[2])) fuel[RESOURCES.indexOf(match[2])] += Number(match[1]);
  }
  return fuel;
}

function fuelNodes(fuel) {
  const nodes = [];
  fuel.forEach((n, i) => {
    if (n) nodes.push(h("span", { class: "fuel-amount" }, `${n}`, resourceIcon(RESOURCES[i], 11)));
  });
  return nodes.length ? nodes : [h("span", { class: "muted" }, t("no fuel"))];
}

/** The legal list, grouped by kind of action. */
export function parseLegal(legal) {
  const out = { open: new Map(), bid: [], pass: false, done: false, discard: new Map(), buy: {}, build: new Set(), power: [], other: [] };
  for (const text of legal || []) {
    const words = text.split(" ");
    const kind = words[0];
    if (kind === "open") {
      const plant = Number(words[1]);
      const amount = Number(words[2]);
      const range = out.open.get(plant) || { min: amount, max: amount };
      range.min = Math.min(range.min, amount);
      range.max = Math.max(range.max, amount);
      out.open.set(plant, range);
    } else if (kind === "bid") out.bid.push(Number(words[1]));
    else if (kind === "pass") out.pass = true;
    else if (kind === "done") out.done = true;
    else if (kind === "discard") {
      const plant = Number(words[1]);
      const keep = text.includes(" keep ") ? text.split(" keep ")[1] : "nothing";
      if (!out.discard.has(plant)) out.discard.set(plant, []);
      out.discard.get(plant).push({ text, keep: parseFuel(keep) });
    } else if (kind === "buy") {
      const amount = Number(words[1]);
      out.buy[words[2]] = Math.max(out.buy[words[2]] || 0, amount);
    } else if (kind === "build") out.build.add(text.slice(6));
    else if (kind === "power") {
      if (text === "power nothing") out.power.push({ text, plants: [], fuel: [0, 0, 0, 0] });
      else {
        const [head, burn] = text.split(" burn ");
        out.power.push({ text, plants: head.split(" ").slice(1).map(Number).sort((a, b) => a - b), fuel: parseFuel(burn) });
      }
    } else out.other.push(text);
  }
  return out;
}

/**
 * Money field with quick amounts: the lowest bid; +5 and +10 above `base`, the highest bid so far
 * (the lowest raise, +1, is the minimum itself); when opening, `base` is the plant's minimum price
 * and +1 is offered too; all your money. A raise past `max` is greyed.
 */
function bidControl(min, max, onSubmit, label, base) {
  const input = h("input", { type: "number", min, max, value: min, step: 1, class: "bid-input", "aria-label": label, inputmode: "numeric" });
  const clamp = (v) => Math.max(min, Math.min(max, Math.round(Number.isFinite(v) ? v : min)));
  const set = (v) => {
    input.value = clamp(v);
    input.dispatchEvent(new Event("input"));
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      set(Number(input.value));
      onSubmit(clamp(Number(input.value)));
    }
  });
  input.addEventListener("change", () => set(Number(input.value)));
  const quick = (text, amount, title, step, dir) => h("button", {
    type: "button", class: "btn small ghost", title, "data-quick": step, "data-amount": amount, dir,
    disabled: amount > max || amount < min ? true : undefined, onclick: () => set(amount),
  }, text);
  // a raise reads "+5" left to right, in a right-to-left page too (not "5+")
  const raise = (n) => quick(`+${n}`, base + n, base === min
    ? t("the lowest bid plus {n}: {amount}", { n, amount: elektro(base + n) })
    : t("the highest bid plus {n}: {amount}", { n, amount: elektro(base + n) }), `+${n}`, "ltr");
  const row = h("div", { class: "bid-control" },
    quick(t("min"), min, t("the lowest bid: {amount}", { amount: elektro(min) }), "min"),
    input,
    ...(base === min ? [raise(1), raise(5), raise(10)] : [raise(5), raise(10)]),
    quick(t("max"), max, t("all your money: {amount}", { amount: elektro(max) }), "max"));
  return { row, input, value: () => clamp(Number(input.value)) };
}

/** Whether every other player has bought a plant or passed this round (nobody can bid against the opener). */
function lastToChoose(view, seat) {
  const statuses = view.auction_status;
  if (!statuses) return false;
  return statuses.every((status, other) => other === seat || (status && (status.status === "bought" || status.status === "passed")));
}

/**
 * Redraw part of a form and keep the keyboard focus on the same control (found again by a
 * selector built from its data attributes), so keyboard players do not lose their place.
 */
function keepingFocus(container, redraw, fallback) {
  const active = document.activeElement;
  let selector = null;
  if (active && container.contains(active)) {
    const data = Object.entries(active.dataset || {}).map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(v)}"]`).join("");
    selector = data ? `${active.tagName.toLowerCase()}${data}` : null;
  }
  redraw();
  if (selector) {
    const again = container.querySelector(selector);
    if (again && !again.disabled) again.focus();
    else (fallback || container.querySelector("button:not([disabled])"))?.focus();
  }
}

function button(text, onclick, kind = "primary", attrs = {}) {
  return h("button", { type: "button", class: `btn ${kind}`, onclick, ...attrs }, text);
}

function heading(title, hint) {
  return [h("h2", { class: "decision-title" }, title), hint ? h("p", { class: "hint" }, hint) : null];
}

// --- one form per decision ------------------------------------------------------------------------

function auctionOpen(ctx, legal) {
  const { view } = ctx;
  const panel = h("div", { class: "decision" });
  let chosen = null;
  const controls = h("div", { class: "bid-area" });
  const cards = (view.current_market || []).map((n) => {
    const ok = legal.open.has(n);
    return plantCard(n, view.plants[n], {
      disabled: !ok,
      title: ok ? undefined : t("You cannot afford plant {plant}", { plant: n }),
      onclick: ok ? () => choose(n) : undefined,
    });
  });
  function choose(plant) {
    chosen = plant;
    for (const card of cards) card.classList.toggle("selected", Number(card.dataset.plant) === plant);
    const range = legal.open.get(plant);
    const submit = (amount) => ctx.act(`open ${plant} ${amount}`);
    if (range.min === range.max) {
      // one price only: nobody is left to bid against you (or it is all your money): no raises to offer
      const alone = lastToChoose(view, ctx.seat);
      const go = button(alone ? t("Buy plant {plant} for {amount}", { plant, amount: elektro(range.min) }) : t("Open auction at {amount}", { amount: elektro(range.min) }),
        () => submit(range.min), "primary", { "data-action": "open", "data-amount": range.min });
      controls.replaceChildren(
        h("p", { class: "field-label one-price" }, alone
          ? t("Nobody is left to bid against you: plant {plant} costs its minimum, {amount}.", { plant, amount: elektro(range.min) })
          : t("You can bid only {amount} (all your money) for plant {plant}.", { plant, amount: elektro(range.min) })),
        h("div", { class: "buttons" }, go));
      go.focus();
      return;
    }
    const bid = bidControl(range.min, range.max, submit, t("opening bid for plant {plant}", { plant }), range.min);
    const go = button(t("Open auction at {amount}", { amount: elektro(range.min) }), () => submit(bid.value()), "primary", { "data-action": "open" });
    bid.input.addEventListener("input", () => { go.textContent = t("Open auction at {amount}", { amount: elektro(bid.value()) }); });
    controls.replaceChildren(
      h("label", { class: "field-label" }, t("Your opening bid for plant {plant} ({min}–{max})", { plant, min: range.min, max: range.max })),
      bid.row, h("div", { class: "buttons" }, go));
    bid.input.focus();
  }
  const mustBuy = !legal.pass && view.round === 1;
  const alone = lastToChoose(view, ctx.seat);
  append(panel,
    ...heading(t("Choose a power plant to auction"), alone
      ? t("You are the last to choose: nobody can bid against you, so a plant costs its minimum (its number).")
      : mustBuy ? t("Everyone must buy a plant in the first round.") : t("Pick a plant from the current market, or pass for this round.")),
    h("div", { class: "card-row pickable" }, ...cards),
    controls,
    legal.pass ? h("div", { class: "buttons" }, button(t("Pass — buy no plant this round"), () => ctx.act("pass"), "secondary", { "data-action": "pass" })) : null,
  );
  if (legal.open.size === 1 || mustBuy) choose([...legal.open.keys()][0]);
  return panel;
}

function auctionBid(ctx, legal) {
  const { view } = ctx;
  const auction = view.auction;
  const min = Math.min(...legal.bid);
  const max = Math.max(...legal.bid);
  const submit = (amount) => ctx.act(`bid ${amount}`);
  const only = min === max;  // all your money is the one raise left: nothing to choose
  const bid = only ? null : bidControl(min, max, submit, t("your bid for plant {plant}", { plant: auction.plant }), auction.bid);
  const go = button(t("Bid {amount}", { amount: elektro(min) }), () => submit(bid ? bid.value() : min), "primary", { "data-action": "bid" });
  if (bid) bid.input.addEventListener("input", () => { go.textContent = t("Bid {amount}", { amount: elektro(bid.value()) }); });
  return h("div", { class: "decision" },
    ...heading(t("Auction for plant {plant}", { plant: auction.plant })),
    h("div", { class: "auction-box" },
      plantCard(auction.plant, view.plants[auction.plant], {}),
      h("div", {}, h("div", { class: "big-number" }, elektro(auction.bid)),
        h("div", {}, ...withNodes(t("highest bid by {player}"), { player: playerChip(auction.leader) })))),
    only ? h("p", { class: "field-label one-price" }, t("You can raise only to {amount}: all your money.", { amount: elektro(min) }))
      : h("label", { class: "field-label" }, t("Raise to ({min}–{max})", { min, max })),
    bid ? bid.row : null,
    h("div", { class: "buttons" }, go,
      legal.pass ? button(t("Pass — leave this auction"), () => ctx.act("pass"), "secondary", { "data-action": "pass" }) : null),
  );
}

function auctionPassOnly(ctx, legal) {
  return h("div", { class: "decision" }, ...heading(t("Nothing you can bid")),
    h("div", { class: "buttons" }, button(t("Pass"), () => ctx.act("pass"), "primary", { "data-action": "pass" })));
}

function discard(ctx, legal) {
  const { view } = ctx;
  const panel = h("div", { class: "decision" });
  const keepArea = h("div", { class: "keep-area" });
  const cards = [...legal.discard.keys()].map((n) => plantCard(n, view.plants[n], { onclick: () => choose(n) }));
  function choose(plant) {
    for (const card of cards) card.classList.toggle("selected", Number(card.dataset.plant) === plant);
    const options = legal.discard.get(plant);
    let picked = options[0].text;
    const radios = options.map((option, i) => h("label", { class: "option" },
      h("input", { type: "radio", name: "keep", value: option.text, checked: i === 0, onchange: () => { picked = option.text; } }),
      h("span", {}, t("Keep")), " ", ...fuelNodes(option.keep)));
    // replaceChildren() would write a null child as the text "null": build the list without gaps
    keepArea.replaceChildren(...[
      options.length > 1 ? h("p", { class: "hint" }, t("Your other plants cannot store everything: choose what to keep.")) : null,
      ...(options.length > 1 ? radios : []),
      h("div", { class: "buttons" }, button(t("Discard plant {plant}", { plant }), () => ctx.act(picked), "danger", { "data-action": "discard" })),
    ].filter(Boolean));
  }
  append(panel, ...heading(t("Too many plants: discard one"), t("Choose the plant to give up. Its resources move to your other plants if they fit.")),
    h("div", { class: "card-row pickable" }, ...cards), keepArea);
  if (cards.length === 1) choose([...legal.discard.keys()][0]);
  return panel;
}

/** Storage room for each resource given a player's plants (hybrids store coal or oil). */
function storage(plants, plantInfo) {
  const room = { coal: 0, oil: 0, garbage: 0, uranium: 0, hybrid: 0 };
  for (const p of plants) {
    const info = plantInfo[p];
    if (info && info.kind in room) room[info.kind] += 2 * info.burn;
  }
  return room;
}

function fits(held, room) {
  const coalOver = Math.max(0, held[0] - room.coal);
  const oilOver = Math.max(0, held[1] - room.oil);
  return coalOver + oilOver <= room.hybrid && held[2] <= room.garbage && held[3] <= room.uranium;
}

/** Unit prices of the next n units of a resource: the cheapest filled spaces first. */
function unitPrices(view, res, n) {
  return (view.prices[res] || []).filter(([, filled]) => filled).slice(0, n).map(([price]) => price);
}

function buyResources(ctx, legal) {
  const { view, seat } = ctx;
  const me = view.players[seat];
  const room = storage(me.plants, view.plants);
  const plan = [0, 0, 0, 0];
  const panel = h("div", { class: "decision" });
  const rows = h("div", { class: "buy-rows" });
  const summary = h("div", { class: "buy-summary" });
  const confirm = button(t("Buy nothing"), () => submit(), "primary", { "data-action": "buy" });
  const cost = (amounts) => amounts.reduce((sum, n, i) => sum + unitPrices(view, RESOURCES[i], n).reduce((a, b) => a + b, 0), 0);
  const allowed = (amounts) => {
    const held = me.resources.map((n, i) => n + amounts[i]);
    return amounts.every((n, i) => n <= (legal.buy[RESOURCES[i]] || 0)) && fits(held, room) && cost(amounts) <= me.money;
  };
  function submit() {
    const actions = [];
    plan.forEach((n, i) => { if (n) actions.push(`buy ${n} ${RESOURCES[i]}`); });
    actions.push("done");
    ctx.actAll(actions);
  }
  function draw() {
    keepingFocus(rows, drawRows, confirm);
  }
  function drawRows() {
    rows.replaceChildren(...RESOURCES.flatMap((res, i) => {
      if (!legal.buy[res] && !plan[i]) return [];
      const more = plan.slice();
      more[i] += 1;
      const less = plan.slice();
      less[i] -= 1;
      const prices = unitPrices(view, res, plan[i]);
      const next = unitPrices(view, res, plan[i] + 1)[plan[i]];
      const stepper = (text, target, ok, label) => h("button", {
        type: "button", class: "btn small step", disabled: !ok, "aria-label": label, "data-res": res, "data-step": text === "+" ? "up" : "down",
        onclick: () => { plan.splice(0, 4, ...target); draw(); },
      }, text);
      return h("div", { class: "buy-row" },
        h("span", { class: "res-label" }, resourceIcon(res, 14), resourceName(res)),
        stepper("−", less, plan[i] > 0, t("one {resource} less", { resource: resourceName(res) })),
        h("b", { class: "buy-count", "data-count": res }, plan[i]),
        stepper("+", more, allowed(more), t("one {resource} more", { resource: resourceName(res) })),
        h("span", { class: "unit-prices" }, prices.length ? h("bdi", { dir: "ltr" }, `${prices.join(" + ")} = ${prices.reduce((a, b) => a + b, 0)}`)
          : (next ? t("next unit {price}", { price: elektro(next) }) : t("none left"))),
      );
    }));
    const total = cost(plan);
    const units = plan.reduce((a, b) => a + b, 0);
    summary.replaceChildren(
      h("span", {}, ...withNodes(t("Total {amount}"), { amount: h("b", {}, elektro(total)) })),
      h("span", { class: "muted" }, t("you keep {money}", { money: elektro(me.money - total) })));
    confirm.textContent = units ? tn("Buy {n} unit for {money}", "Buy {n} units for {money}", units, { money: elektro(total) }) : t("Buy nothing");
  }
  draw();
  const anything = RESOURCES.some((res) => legal.buy[res]);
  append(panel, 
    ...heading(t("Buy resources"), anything ? t("Fuel for your plants: each plant stores twice what it burns.") : t("Your plants cannot store anything more (or you cannot pay).")),
    rows, summary, h("div", { class: "buttons" }, confirm));
  return panel;
}

function build(ctx, legal) {
  const { view, seat, mapInfo } = ctx;
  const me = view.players[seat];
  const regions = view.regions;
  const distances = connectionCosts(mapInfo, regions);
  const regionOf = new Map(mapInfo.cities.map((c) => [c.name, c.region]));
  const houses = ctx.houses;
  const openSlots = ctx.openSlots;
  const firstGame = view.config && view.config.variant === "first_game";
  const limit = Math.min(22 - me.cities.length, firstGame ? Math.max(0, 7 - me.cities.length) : 22);
  const picked = [];
  const panel = h("div", { class: "decision" });
  const queue = h("ol", { class: "build-queue" });
  const summary = h("div", { class: "buy-summary" });
  const confirm = button(t("Build nothing"), () => submit(), "primary", { "data-action": "build" });

  /** Cost of each city that can be added after the picked ones, or {} when nothing more fits. */
  function nextCosts(chosen) {
    const spent = chosen.reduce((sum, item) => sum + item.cost, 0);
    if (chosen.length >= limit) return {};
    let costs = {};
    if (!chosen.length && ctx.buildCosts) {
      for (const [city, cost] of Object.entries(ctx.buildCosts)) if (legal.build.has(city)) costs[city] = cost;
    } else {
      const network = me.cities.concat(chosen.map((item) => item.city));
      const dist = network.length ? distances(network) : null;
      for (const city of mapInfo.cities) {
        const name = city.name;
        if (!regions.includes(regionOf.get(name))) continue;
        if (network.includes(name)) continue;
        const taken = (houses[name] || []).length;
        if (taken >= openSlots) continue;
        if (!chosen.length && !legal.build.has(name)) continue;
        const link = dist ? dist.get(name) : 0;
        if (link === undefined) continue;
        costs[name] = SLOT_COSTS[taken] + link;
      }
    }
    costs = Object.fromEntries(Object.entries(costs).filter(([, cost]) => spent + cost <= me.money));
    return costs;
  }
  let offer = {};
  function toggle(city) {
    const at = picked.findIndex((item) => item.city === city);
    if (at >= 0) {
      // Drop it, then re-price the rest in order (paths change); drop what no longer fits.
      const rest = picked.splice(at).slice(1);
      for (const item of rest) {
        const costs = nextCosts(picked);
        if (costs[item.city] !== undefined) picked.push({ city: item.city, cost: costs[item.city] });
      }
    } else if (offer[city] !== undefined) picked.push({ city, cost: offer[city] });
    draw();
  }
  function submit() {
    ctx.actAll(picked.map((item) => `build ${item.city}`).concat(["done"]), picked.map((item) => item.cost));
  }
  function draw() {
    offer = nextCosts(picked);
    ctx.board.setBuildChoices(offer, picked.map((item) => item.city), PLAYER_COLOURS[seat]);
    const total = picked.reduce((sum, item) => sum + item.cost, 0);
    queue.replaceChildren(...picked.map((item) => h("li", {},
      h("span", {}, item.city), h("b", {}, elektro(item.cost)),
      h("button", { type: "button", class: "btn tiny ghost", "aria-label": t("remove {city}", { city: item.city }), onclick: () => toggle(item.city) }, "×"))));
    queue.hidden = !picked.length;
    summary.replaceChildren(
      h("span", {}, ...withNodes(t("Total {amount}"), { amount: h("b", {}, elektro(total)) })),
      h("span", { class: "muted" }, t("you keep {money}", { money: elektro(me.money - total) })));
    confirm.textContent = picked.length
      ? tn("Build {n} city for {money}", "Build {n} cities for {money}", picked.length, { money: elektro(total) }) : t("Build nothing");
    if (ctx.orderLabel) confirm.textContent = ctx.orderLabel; // a standing order (orders.js)
  }
  ctx.onCityClick(toggle);
  draw();
  const canAny = Object.keys(offer).length > 0;
  append(panel, 
    ...heading(pt("phase", "Build"), canAny
      ? t("Click cities on the map: each shows what it costs now (house + cheapest connection). Picked cities queue up; later ones are priced from the earlier ones.")
      : t("You cannot build anywhere this turn.")),
    queue, summary, h("div", { class: "buttons" }, confirm,
      button(t("Clear"), () => { picked.length = 0; draw(); }, "ghost")));
  return panel;
}

function power(ctx, legal) {
  const { view, seat } = ctx;
  const me = view.players[seat];
  const options = legal.power;
  const key = (plants) => plants.join(" ");
  const bySet = new Map();
  for (const option of options) {
    const k = key(option.plants);
    if (!bySet.has(k)) bySet.set(k, []);
    bySet.get(k).push(option);
  }
  const preferred = options.find((o) => o.text === ctx.defaultPower) || options.find((o) => o.plants.length) || options[0];
  let chosenPlants = new Set(preferred.plants);
  let chosen = preferred;
  const panel = h("div", { class: "decision" });
  const cardsRow = h("div", { class: "card-row pickable" });
  const mixArea = h("div", { class: "mix-area" });
  const summary = h("div", { class: "buy-summary" });
  const confirm = button("", () => ctx.act(chosen.text), "primary", { "data-action": "power" });
  const usable = new Set(options.flatMap((o) => o.plants));
  function draw() {
    const current = [...chosenPlants].sort((a, b) => a - b);
    const choices = bySet.get(key(current)) || [];
    if (!choices.includes(chosen)) chosen = choices[0];
    keepingFocus(cardsRow, () => cardsRow.replaceChildren(...me.plants.map((p) => {
      const next = new Set(chosenPlants);
      if (next.has(p)) next.delete(p);
      else next.add(p);
      const ok = usable.has(p) && bySet.has(key([...next].sort((a, b) => a - b)));
      const on = chosenPlants.has(p);
      const card = plantCard(p, view.plants[p], {
        selected: on,
        disabled: !ok,
        extra: on ? "switched-on" : "switched-off",
        title: !usable.has(p) ? t("Plant {plant} has no fuel to run", { plant: p })
          : on ? t("Plant {plant} runs: click to switch it off", { plant: p }) : t("Plant {plant} is switched off: click to run it", { plant: p }),
        onclick: ok ? () => { chosenPlants = next; draw(); } : undefined,
      });
      // in words too, not by a colour alone
      card.append(h("span", { class: "switch-tag", "aria-hidden": "true" }, on ? pt("plant switch", "on") : pt("plant switch", "off")));
      return card;
    })), confirm);
    mixArea.replaceChildren(...(choices.length > 1 ? [
      h("p", { class: "hint" }, t("Choose the fuel mix:")),
      ...choices.map((option) => h("label", { class: "option" },
        h("input", { type: "radio", name: "mix", checked: option === chosen, onchange: () => { chosen = option; draw(); } }),
        h("span", {}, t("Burn")), " ", ...fuelNodes(option.fuel))),
    ] : choices.length === 1 && choices[0].plants.length ? [h("p", { class: "hint" }, t("Burns"), " ", ...fuelNodes(choices[0].fuel))] : []));
    const capacity = current.reduce((sum, p) => sum + (view.plants[p] ? view.plants[p].cities : 0), 0);
    const cities = Math.min(capacity, me.cities.length);
    const pay = payment(cities);
    summary.replaceChildren(
      h("span", {}, tn("Powers {powered} of your {n} city", "Powers {powered} of your {n} cities", me.cities.length, { powered: cities })),
      h("span", {}, ...withNodes(t("Income {amount}"), { amount: h("b", { "data-payout": pay }, elektro(pay)) })));
    confirm.textContent = current.length
      ? tn("Power {n} city — earn {money}", "Power {n} cities — earn {money}", cities, { money: elektro(pay) })
      : t("Power nothing — earn {money}", { money: elektro(pay) });
    if (ctx.orderLabel) confirm.textContent = ctx.orderLabel; // a standing order (orders.js)
    confirm.disabled = !chosen;
  }
  draw();
  append(panel, ...heading(t("Bureaucracy: power your cities"), t("Choose the plants to run. The best choice is preselected.")),
    cardsRow, mixArea, summary, h("div", { class: "buttons" }, confirm));
  return panel;
}

function doneOnly(ctx, title, hint) {
  return h("div", { class: "decision" }, ...heading(title, hint),
    h("div", { class: "buttons" }, button(t("Done"), () => ctx.act("done"), "primary", { "data-action": "done" })));
}

function fallback(ctx, legal) {
  return h("div", { class: "decision" }, ...heading(t("Your move")),
    h("div", { class: "buttons wrap" }, ...ctx.legal.slice(0, 40).map((text) => button(h("bdi", { dir: "ltr" }, text), () => ctx.act(text), "secondary"))));
}

/** The decision before the player to act, for the sentences below. */
function decisionKind(view) {
  const auction = view.auction || {};
  if (view.phase === 2) {
    if (auction.discard_seat >= 0) return "discard";
    if (auction.plant > 0) return "bid";
    return "open";
  }
  return { 3: "buy", 4: "build", 5: "power" }[view.phase] || "move";
}

/**
 * What the player to act must decide, as a whole sentence ({player} left in for a chip):
 * how = "to" ("{player} to build", the top bar), "must" ("{player} must build.") or "mine"
 * ("Your turn — build").
 */
export function waitingFor(view, how = "to") {
  const auction = view.auction || {};
  const params = { plant: auction.plant, amount: elektro(auction.bid) };
  const kind = decisionKind(view);
  if (how === "mine") {
    switch (kind) {
      case "discard": return t("Your turn — discard a plant");
      case "bid": return t("Your turn — bid on plant {plant} (highest {amount})", params);
      case "open": return t("Your turn — choose a plant to auction");
      case "buy": return t("Your turn — buy resources");
      case "build": return t("Your turn — build");
      case "power": return t("Your turn — choose which plants to run");
      default: return t("Your turn");
    }
  }
  if (how === "must") {
    switch (kind) {
      case "discard": return t("{player} must discard a plant.");
      case "bid": return t("{player} must bid on plant {plant} (highest {amount}).", params);
      case "open": return t("{player} must choose a plant to auction.");
      case "buy": return t("{player} must buy resources.");
      case "build": return t("{player} must build.");
      case "power": return t("{player} must choose which plants to run.");
      default: return t("{player} must move.");
    }
  }
  switch (kind) {
    case "discard": return t("{player} to discard a plant");
    case "bid": return t("{player} to bid on plant {plant} (highest {amount})", params);
    case "open": return t("{player} to choose a plant to auction");
    case "buy": return t("{player} to buy resources");
    case "build": return t("{player} to build");
    case "power": return t("{player} to choose which plants to run");
    default: return t("{player} to move");
  }
}

/** Build the decision form for the seat to act; ctx carries the view, legal list and callbacks. */
export function renderDecision(ctx) {
  const [kind, form] = chooseForm(ctx);
  form.dataset.decision = kind;
  return form;
}

function chooseForm(ctx) {
  const legal = parseLegal(ctx.legal);
  const kinds = new Set((ctx.legal || []).map((text) => text.split(" ")[0]));
  if (kinds.has("discard")) return ["discard", discard(ctx, legal)];
  if (kinds.has("open")) return ["open", auctionOpen(ctx, legal)];
  if (kinds.has("bid")) return ["bid", auctionBid(ctx, legal)];
  if (kinds.has("power")) return ["power", power(ctx, legal)];
  if (ctx.view.phase === 3 && (kinds.has("buy") || kinds.has("done"))) return ["buy", buyResources(ctx, legal)];
  if (ctx.view.phase === 4 && (kinds.has("build") || kinds.has("done"))) return ["build", build(ctx, legal)];
  if (kinds.size === 1 && kinds.has("pass")) return ["pass", auctionPassOnly(ctx, legal)];
  if (kinds.size === 1 && kinds.has("done")) return ["done", doneOnly(ctx, t("Your move"), "")];
  return ["other", fallback(ctx, legal)];
}

export function waitingPanel(view, toAct, seats, spectator) {
  if (toAct === null || toAct === undefined) return h("div", { class: "decision waiting" }, ...heading(t("The game is over")));
  const info = seats && seats[toAct];
  const chip = playerChip(toAct);
  const title = info && info.kind === "bot"
    ? withNodes(t("Waiting for {player} ({bot} bot)", { bot: botName(info.bot || "") }), { player: chip })
    : withNodes(t("Waiting for {player}"), { player: chip });
  return h("div", { class: "decision waiting" },
    h("h2", { class: "decision-title" }, ...title),
    h("p", { class: "hint" }, ...withNodes(waitingFor(view, "must"), { player: playerName(toAct) })),
    spectator ? h("p", { class: "hint" }, t("You are watching this game. Open a seat's link to play.")) : h("div", { class: "spinner", "aria-hidden": "true" }));
}
