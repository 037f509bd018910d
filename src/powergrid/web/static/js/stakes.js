// What decides the game, always in view: the turn order with this round's auction status, the
// score track (cities per player, the Step 2 trigger, the end count) and a warning when a player
// can end the game in this round's build phase.
import { connectionCosts } from "./board.js";
import { PLAYER_COLOURS, SLOT_COSTS, h, markerIcon, playerChip, playerName } from "./common.js";
import { formatNumber, listOf, pt, t, tn, withNodes } from "./i18n.js";
import { auctionTag } from "./players.js";

/**
 * How many more cities a player can afford to build now: the cheapest city first, again and again
 * (each one priced from the network so far). A greedy count: it never claims more than they can
 * build, so a warning built on it is never raised in vain.
 */
export function affordableCities(view, seat, mapInfo, houses, limit) {
  const player = view.players[seat];
  const openSlots = Math.min(3, view.step || 1);
  const regions = new Set(view.regions);
  const inPlay = mapInfo.cities.filter((c) => regions.has(c.region)).map((c) => c.name);
  const distances = connectionCosts(mapInfo, view.regions);
  const network = player.cities.slice();
  let money = player.money;
  let count = 0;
  while (count < limit) {
    const dist = network.length ? distances(network) : null;
    let best = null;
    for (const name of inPlay) {
      if (network.includes(name)) continue;
      const taken = (houses[name] || []).length;
      if (taken >= openSlots) continue;
      const link = dist ? dist.get(name) : 0;
      if (link === undefined) continue;
      const cost = SLOT_COSTS[taken] + link;
      if (!best || cost < best.cost) best = { name, cost };
    }
    if (!best || best.cost > money) break;
    money -= best.cost;
    network.push(best.name);
    count += 1;
  }
  return count;
}

/** Seats that can reach the end count in this round's build phase (none outside phases 2-4). */
export function playersWhoCanEnd(view, mapInfo, houses) {
  const stakes = view.stakes;
  if (!stakes || !mapInfo || view.game_over || view.phase > 4) return [];
  const out = [];
  view.players.forEach((player, seat) => {
    const need = stakes.end_cities - player.cities.length;
    if (need <= 0 || affordableCities(view, seat, mapInfo, houses, need) >= need) out.push(seat);
  });
  return out;
}

function turnOrder(view, toAct) {
  const order = view.order || view.players.map((_, i) => i);
  const statuses = view.auction_status;
  return h("ol", { class: "turn-order", "aria-label": t("Turn order") },
    ...order.map((seat, i) => {
      const tag = statuses ? auctionTag(statuses[seat]) : null;
      return h("li", { class: `${seat === toAct ? "to-act" : ""}`, "data-seat": seat, style: `--pc:${PLAYER_COLOURS[seat]}` },
        h("span", { class: "place" }, formatNumber(i + 1)), playerChip(seat),
        tag ? h("span", { class: `tag auction-${tag.kind}`, title: tag.title, "data-auction": tag.kind }, tag.text) : null);
    }));
}

function scoreTrack(view) {
  const stakes = view.stakes;
  const counts = view.players.map((p) => p.cities.length);
  const length = Math.max(stakes.end_cities, ...counts) + 1;
  const at = (n) => `${((n + 0.5) / length) * 100}%`;
  const stacks = new Map();
  const markers = counts.map((n, seat) => {
    const level = stacks.get(n) || 0;
    stacks.set(n, level + 1);
    return h("span", { class: "track-marker", "data-seat": seat, style: `left:${at(n)};--level:${level}`, title: tn("{player}: {n} city", "{player}: {n} cities", n, { player: playerName(seat) }) },
      markerIcon(seat, 15));
  });
  const ticks = [];
  for (let n = 0; n < length; n += 1) {
    if (n % 5 === 0 || n === stakes.end_cities || n === stakes.step2_cities) {
      ticks.push(h("span", { class: "track-tick", style: `left:${at(n)}` }, formatNumber(n)));
    }
  }
  const flags = [];
  if (stakes.step2_cities && view.step === 1) {
    flags.push(h("span", { class: "track-flag step2", style: `left:${at(stakes.step2_cities)}`,
      title: tn("Step 2 begins after a build phase in which someone has {n} city", "Step 2 begins after a build phase in which someone has {n} cities", stakes.step2_cities) },
    t("Step {step}", { step: 2 })));
  }
  flags.push(h("span", { class: "track-flag end", style: `left:${at(stakes.end_cities)}`,
    title: tn("The game ends after a build phase in which someone has {n} city", "The game ends after a build phase in which someone has {n} cities", stakes.end_cities) },
  pt("score track", "End")));
  const label = t("Cities: {list}; Step 2 at {step2}, the game ends at {end}", {
    list: listOf(counts.map((n, seat) => `${playerName(seat)} ${formatNumber(n)}`), "unit").join(""),
    step2: stakes.step2_cities ?? "—", end: stakes.end_cities });
  return h("div", { class: "score-track", role: "img", "aria-label": label },
    h("div", { class: "track-bar", style: `--cells:${length}` },
      stakes.step2_cities ? h("span", { class: "track-zone step2", style: `left:${at(stakes.step2_cities)}` }) : null,
      h("span", { class: "track-zone end", style: `left:${at(stakes.end_cities)}` }),
      ...flags, ...markers),
    h("div", { class: "track-ticks" }, ...ticks));
}

export function renderStakes(container, view, { toAct, mapInfo, houses }) {
  if (!view.stakes) {
    container.replaceChildren(turnOrder(view, toAct));
    return;
  }
  const enders = playersWhoCanEnd(view, mapInfo, houses);
  const warning = enders.length
    ? h("div", { class: "end-warning", role: "status" }, "⚠ ",
      ...withNodes(tn("{players} can reach {n} cities in this round's build: the game would end straight after it, without bureaucracy (the most cities powered wins).",
        "{players} can reach {n} cities in this round's build: the game would end straight after it, without bureaucracy (the most cities powered wins).",
        view.stakes.end_cities), { players: listOf(enders.map((seat) => playerChip(seat))) }))
    : null;
  container.replaceChildren(...[turnOrder(view, toAct), scoreTrack(view), warning].filter(Boolean));
}
