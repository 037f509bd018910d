// The game log in the reader's words, drawn from its structured entries (the server's display log:
// the engine's events plus one summary per player and round, see server/games/round_log.py). The
// stored log has no language: two readers of one game see the same entries, each in their own.
// The messages copy the English of rules/events.py `describe` and round_log.py `summary_text`
// (the Python side uses the same ones, so each is translated once).
import { h, mapName, notation, phaseWord, playerChip, regionName, resourceAmount } from "./common.js";
import { elektro, listOf, t, tn, withNodes } from "./i18n.js";

function boxedWhy(why) {
  switch (why) {
    case "cities": return t("it is numbered no higher than a player's city count");
    case "no_sale": return t("no plant was bought this round");
    case "step2": return t("Step 2 began");
    case "step3": return t("Step 3 began");
    case "step3_update": return t("the Step 3 market update");
    case "discard": return t("discarded over the plant limit");
    default: return String(why);
  }
}

function phaseLine(phase) {
  switch (phase) {
    case 2: return t("Phase 2: auction");
    case 3: return t("Phase 3: buy resources");
    case 4: return t("Phase 4: build");
    case 5: return t("Phase 5: bureaucracy");
    default: return t("Phase {phase}", { phase });
  }
}

/** Units of each resource ([coal, oil, garbage, uranium]) as words: "2 coal, 1 oil". */
export function fuelList(fuel) {
  const names = ["coal", "oil", "garbage", "uranium"];
  return listOf(fuel.map((n, i) => (n ? resourceAmount(n, names[i]) : null)).filter(Boolean)).join("");
}

/** "2coal 1oil" (action notation) as amounts per resource. */
function notationFuel(text) {
  const fuel = [0, 0, 0, 0];
  const names = ["coal", "oil", "garbage", "uranium"];
  for (const part of String(text || "").trim().split(/\s+/)) {
    const match = /^(\d+)([a-z]+)$/.exec(part);
    if (match && names.includes(match[2])) fuel[names.indexOf(match[2])] += Number(match[1]);
  }
  return fuel;
}

const chips = (seats) => listOf(seats.map((seat) => playerChip(seat)));

/**
 * A player's action in words, as nodes: seat and action notation ("open 6 25") -> "[Red] opens an
 * auction for plant 6 at 25". Notation it does not know is shown as notation.
 */
export function actionNodes(seat, action) {
  const player = playerChip(seat);
  const words = String(action).split(" ");
  const n = (i) => Number(words[i]);
  switch (words[0]) {
    case "open":
      return withNodes(t("{player} opens an auction for plant {plant} at {price}", { plant: n(1), price: elektro(n(2)) }), { player });
    case "bid": return withNodes(t("{player} bids {amount}", { amount: elektro(n(1)) }), { player });
    case "pass": return withNodes(t("{player} passes"), { player });
    case "done": return withNodes(t("{player} is done"), { player });
    case "buy":
      return withNodes(t("{player} buys {list}", { list: resourceAmount(n(1), words[2]) }), { player });
    case "build": return withNodes(t("{player} builds in {city}", { city: action.slice(6) }), { player });
    case "discard": {
      const keep = action.includes(" keep ") ? action.split(" keep ")[1] : "nothing";
      const list = fuelList(notationFuel(keep));
      return withNodes(list
        ? t("{player} discards plant {plant}, keeping {list}", { plant: n(1), list })
        : t("{player} discards plant {plant}, keeping nothing", { plant: n(1) }), { player });
    }
    case "power": {
      if (action === "power nothing") return withNodes(t("{player} runs no plant"), { player });
      const [head, burn] = action.split(" burn ");
      const plants = head.split(" ").slice(1);
      const list = listOf(plants).join("");
      const fuel = burn && burn !== "nothing" ? fuelList(notationFuel(burn)) : "";
      return withNodes(fuel
        ? tn("{player} runs plant {list} burning {fuel}", "{player} runs plants {list} burning {fuel}", plants.length, { list, fuel })
        : tn("{player} runs plant {list}", "{player} runs plants {list}", plants.length, { list }), { player });
    }
    default:
      return [player, ": ", notation(action)];
  }
}

/** An action taken back, in words ("Red took back their move (Red bids 4)"). */
export function undoNodes(seat, undone) {
  return withNodes(t("{player} took back their move ({action})"), { player: playerChip(seat), action: actionNodes(seat, undone) });
}

function summaryParts(done) {
  const parts = [];
  parts.push(done.plant ? t("bought plant {plant} for {price}", { plant: done.plant[0], price: elektro(done.plant[1]) })
    : t("bought no plant"));
  const fuel = fuelList(done.fuel || [0, 0, 0, 0]);
  parts.push(fuel ? t("bought {list} for {price}", { list: fuel, price: elektro(done.fuel_paid) }) : t("bought no resources"));
  const built = done.built || [];
  parts.push(built.length
    ? tn("built {n} city ({list}) for {price}", "built {n} cities ({list}) for {price}", built.length,
      { list: listOf(built).join(""), price: elektro(done.build_paid) })
    : t("built nothing"));
  if (done.powered !== null && done.powered !== undefined) {
    parts.push(tn("powered {n} city and earned {amount}", "powered {n} cities and earned {amount}", done.powered,
      { amount: elektro(done.earned) }));
  } else if (done.final_powered !== null && done.final_powered !== undefined) {
    parts.push(tn("could power {n} city at the end", "could power {n} cities at the end", done.final_powered));
  }
  return parts;
}

/**
 * One display-log entry in words: {kind, nodes}. kind is the line's look: "summary", "round",
 * "phase", "big" (a Step, the end) or "". mapInfo gives the map's name for the first line.
 */
export function entryLine(entry, mapInfo) {
  const [kind, ...args] = entry;
  switch (kind) {
    case "setup": {
      const [regions, seating] = args;
      const count = seating.length;
      const text = tn("New game on {map} with {players} player; regions {regions}; seating {seating}",
        "New game on {map} with {players} players; regions {regions}; seating {seating}", count,
        { map: mapName(mapInfo ? mapInfo.name : ""), players: count, regions: listOf(regions.map(regionName)).join("") });
      return { kind: "", nodes: withNodes(text, { seating: chips(seating) }) };
    }
    case "round": return { kind: "round", nodes: [t("Round {round}", { round: args[0] })] };
    case "phase": return { kind: "phase", nodes: [phaseLine(args[0])] };
    case "order": return { kind: "", nodes: withNodes(t("Player order: {list}"), { list: chips(args[0]) }) };
    case "act": return { kind: "", nodes: actionNodes(args[0], args[1]) };
    case "bought":
      return { kind: "", nodes: withNodes(t("{player} buys plant {plant} for {price}", { plant: args[1], price: elektro(args[2]) }),
        { player: playerChip(args[0]) }) };
    case "paid":
      return { kind: "", nodes: withNodes(t("{player} pays {amount}", { amount: elektro(args[1]) }), { player: playerChip(args[0]) }) };
    case "drawn": return { kind: "", nodes: [t("Plant {plant} enters the market", { plant: args[0] })] };
    case "boxed":
      return { kind: "", nodes: [t("Plant {plant} leaves the game ({why})", { plant: args[0], why: boxedWhy(args[1]) })] };
    case "under_deck": return { kind: "", nodes: [t("Plant {plant} goes under the deck", { plant: args[0] })] };
    case "step": return { kind: "big", nodes: [t("Step {step} begins", { step: args[0] })] };
    case "step3_drawn":
      return { kind: "big", nodes: [t("The Step 3 card is drawn (during {phase}); the deck is shuffled", { phase: phaseWord(args[0]) })] };
    case "step3_ignored": return { kind: "", nodes: [t("The Step 3 card is drawn and set aside (first game: Step 1 only)")] };
    case "payout":
      return { kind: "", nodes: withNodes(tn("{player} powers {n} city and earns {amount}", "{player} powers {n} cities and earns {amount}",
        args[1], { amount: elektro(args[2]) }), { player: playerChip(args[0]) }) };
    case "resupply":
      return { kind: "", nodes: [t("Resupply: {list}", { list: fuelList(args[0]) || "—" })] };
    case "over": {
      const [winners, powered] = args;
      const scores = listOf(powered.map((n, seat) => [playerChip(seat), `\u00a0${n}`]), "unit").flat();
      const text = tn("Game over: {winners} wins (cities powered: {list})", "Game over: {winners} win (cities powered: {list})",
        winners.length);
      return { kind: "big", nodes: withNodes(text, { winners: chips(winners), list: scores }) };
    }
    case "summary": {
      const [round, seat, done] = args;
      return { kind: "summary", nodes: [
        h("span", { class: "summary-round", title: t("Round {round}", { round }) }, t("R{round}", { round })),
        playerChip(seat), " ", summaryParts(done).join("; ")] };
    }
    default:
      return { kind: "", nodes: [entry.map(String).join(" ")] };
  }
}

/** A log list item for an entry. */
export function logItem(entry, mapInfo, fresh = false) {
  const line = entryLine(entry, mapInfo);
  const kind = `${line.kind}${fresh ? " fresh" : ""}`;
  return h("li", { class: kind.trim() || null, "data-entry": entry[0] }, ...line.nodes);
}

/** The phases whose turns fold into one line: buying resources and building. */
const FOLDED = { 3: "buy", 4: "build" };

/** A turn of buying or building in words: "[Red] buys 2 coal and 1 oil for 12 E". */
function turnNodes(turn) {
  const player = playerChip(turn.seat);
  const fuel = [0, 0, 0, 0];
  const names = ["coal", "oil", "garbage", "uranium"];
  const cities = [];
  let paid = 0;
  for (const entry of turn.entries) {
    if (entry[0] === "paid") paid += entry[2];
    else if (String(entry[2]).startsWith("buy ")) {
      const [, n, res] = String(entry[2]).split(" ");
      if (names.includes(res)) fuel[names.indexOf(res)] += Number(n);
    } else if (String(entry[2]).startsWith("build ")) cities.push(String(entry[2]).slice(6));
  }
  if (turn.kind === "buy") {
    const list = fuelList(fuel);
    return withNodes(list ? t("{player} buys {list} for {price}", { list, price: elektro(paid) }) : t("{player} buys nothing"), { player });
  }
  return withNodes(cities.length
    ? t("{player} builds in {list} for {price}", { list: listOf(cities).join(""), price: elektro(paid) })
    : t("{player} builds nothing"), { player });
}

/**
 * Draws log entries in order, folding each player's turn of buying resources or building (their
 * purchases, what they paid and "done") into one line that grows as the entries come. Every
 * entry keeps a list item (paging back and counting entries stay one to one); the folded ones
 * are hidden.
 */
export class LogFolder {
  constructor() {
    this.phase = null;
    this.turn = null;
  }

  /** The list item for the next entry (fresh: it has just happened). */
  item(entry, mapInfo, fresh = false) {
    const [kind, seat, action] = entry;
    if (kind === "phase" || kind === "round") {
      this.phase = kind === "phase" ? entry[1] : null;
      this.turn = null;
    }
    const fold = FOLDED[this.phase];
    if (fold && (kind === "act" || kind === "paid")) {
      const turn = this.turn;
      if (turn && turn.seat === seat && !turn.closed) {
        turn.entries.push(entry);
        turn.closed = action === "done";
        turn.li.replaceChildren(...turnNodes(turn));
        return h("li", { class: "folded", "data-entry": kind, hidden: true });
      }
      const text = String(action);
      if (kind === "act" && (text.startsWith("buy ") || text.startsWith("build ") || text === "done")) {
        const li = h("li", { class: fresh ? "fresh" : null, "data-entry": kind, "data-fold": fold, "data-seat": seat });
        this.turn = { seat, kind: fold, entries: [entry], closed: text === "done", li };
        li.replaceChildren(...turnNodes(this.turn));
        return li;
      }
    }
    if (kind === "act" || kind === "paid") this.turn = null;
    return logItem(entry, mapInfo, fresh);
  }
}
