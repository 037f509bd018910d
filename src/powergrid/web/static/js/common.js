// Shared helpers: DOM building, the HTTP API, seat tokens kept in this browser, game facts.
import { errorText, language, listOf, pt, t, tn, withNodes } from "./i18n.js";
import { seatName } from "./names.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Append children to a node, skipping null/undefined/false (like h()). */
export function append(node, ...children) {
  return fill(node, {}, children);
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same call shape as h(). */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/**
 * A refusal: its code, its message in the reader's language (the language's message for the
 * code, else the server's words), the server's own words (serverMessage) and the error's other
 * members (facts: what the words say, as data, such as an undo refusal's "by" and "action").
 */
export class ApiError extends Error {
  constructor(status, code, message, error = {}) {
    super(errorText(code, message));
    this.status = status;
    this.code = code;
    this.serverMessage = message;
    const { code: _code, message: _message, ...facts } = error || {};
    this.facts = facts;
  }
}

/** Call the server's JSON API; a refusal becomes an ApiError (see above). */
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError(0, "network", t("The server cannot be reached. Is it running?"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || `http_${response.status}`,
      error.message || t("The server refused ({status}).", { status: String(response.status) }), error);
  }
  return data;
}

// --- seats held by this browser (hot-seat: several per game) -----------------------------------
const SEATS_KEY = "powergrid.seats";

function readSeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY)) || {};
  } catch (err) {
    return {};
  }
}

/** {seat: token} for every seat of this game held in this browser. */
export function seatsHeld(gameId) {
  return readSeats()[gameId] || {};
}

export function rememberSeat(gameId, seat, token) {
  const all = readSeats();
  all[gameId] = { ...(all[gameId] || {}), [seat]: token };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export function forgetSeat(gameId, seat) {
  const all = readSeats();
  if (all[gameId]) delete all[gameId][seat];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export function gamesHeld() {
  return Object.keys(readSeats());
}

// --- game facts ---------------------------------------------------------------------------------
export const PLAYER_COLOURS = ["#d33a3a", "#2f6fd6", "#2b9a4a", "#e5b820", "#8e4fc4", "#3b3b44"];
/** The players' names: their colours, in the reader's language. */
export function playerNames() {
  return [pt("player", "Red"), pt("player", "Blue"), pt("player", "Green"), pt("player", "Yellow"),
    pt("player", "Purple"), pt("player", "Black")];
}
/** Told apart without colour: each player's houses and chips have a shape and an initial. */
export const PLAYER_INITIALS = ["R", "B", "G", "Y", "P", "K"];
export const PLAYER_SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "pentagon"];
export const RESOURCES = ["coal", "oil", "garbage", "uranium"];
export const RESOURCE_COLOURS = { coal: "#7a5530", oil: "#1f1f24", garbage: "#e8c22e", uranium: "#d8332f" };
export const KIND_COLOURS = {
  coal: "#8a5d34", oil: "#2c2c33", garbage: "#d9b227", uranium: "#c93a36",
  hybrid: "linear-gradient(135deg, #8a5d34 0 50%, #2c2c33 50% 100%)",
  ecological: "#3f9a45", fusion: "#4a7fd0",
};

/** A resource's name ("coal"), in the reader's language. */
export function resourceName(resource) {
  switch (resource) {
    case "coal": return pt("resource", "coal");
    case "oil": return pt("resource", "oil");
    case "garbage": return pt("resource", "garbage");
    case "uranium": return pt("resource", "uranium");
    case "hybrid": return t("coal or oil");
    default: return resource;
  }
}

/** n units of a resource in words ("2 coal"), in the plural form the language needs. */
export function resourceAmount(n, resource) {
  switch (resource) {
    case "coal": return tn("{n} coal", "{n} coal", n);
    case "oil": return tn("{n} oil", "{n} oil", n);
    case "garbage": return tn("{n} garbage", "{n} garbage", n);
    case "uranium": return tn("{n} uranium", "{n} uranium", n);
    default: return `${n} ${resource}`;
  }
}

/** What a kind of plant burns, in words. */
export function kindLabel(kind) {
  switch (kind) {
    case "hybrid": return t("coal or oil");
    case "ecological": return t("wind / sun");
    case "fusion": return t("fusion");
    default: return resourceName(kind);
  }
}

/** Elektro paid for 0..20 cities powered (docs/rules.md, bureaucracy). */
export const PAYMENT = [10, 22, 33, 44, 54, 64, 73, 82, 90, 98, 105, 112, 118, 124, 129, 134, 138, 142, 145, 148, 150];
export const SLOT_COSTS = [10, 15, 20];

/** A phase's name ("Auction") for the top bar. */
export function phaseName(phase) {
  switch (phase) {
    case 2: return pt("phase", "Auction");
    case 3: return pt("phase", "Buy resources");
    case 4: return pt("phase", "Build");
    case 5: return pt("phase", "Bureaucracy");
    case 6: return pt("phase", "Game over");
    default: return "";
  }
}

/** A phase as the engine names it ("auction", "build", "bureaucracy", "resources"), in words. */
export function phaseWord(name) {
  switch (name) {
    case "auction": return pt("phase, lower case", "auction");
    case "resources": return pt("phase, lower case", "resources");
    case "build": return pt("phase, lower case", "build");
    case "bureaucracy": return pt("phase, lower case", "bureaucracy");
    default: return String(name);
  }
}

/** A map's name (the maps' ids are "germany", "usa"; another map keeps its own name). */
export function mapName(name) {
  switch (name) {
    case "germany": return pt("map", "Germany");
    case "usa": return pt("map", "USA");
    default: return name ? name[0].toUpperCase() + name.slice(1) : "";
  }
}

/** A region's name (the maps name their regions by colour). */
export function regionName(region) {
  switch (region) {
    case "green": return pt("region", "green");
    case "brown": return pt("region", "brown");
    case "yellow": return pt("region", "yellow");
    case "red": return pt("region", "red");
    case "cyan": return pt("region", "cyan");
    case "purple": return pt("region", "purple");
    case "blue": return pt("region", "blue");
    case "orange": return pt("region", "orange");
    default: return region;
  }
}

/** A bot's name ("heuristic", "pimc:fast") in words: the kind of bot, then its speed if named. */
export function botName(bot) {
  const [kind, speed] = String(bot || "").split(":");
  const name = {
    random: pt("bot", "random"), heuristic: pt("bot", "heuristic"), greedy: pt("bot", "greedy"), bold: pt("bot", "bold"),
    pimc: pt("bot", "plan search"), mcts: pt("bot", "plan search"), expert: pt("bot", "evaluator search"),
  }[kind] || kind;
  if (speed === "fast") return t("{bot}, fast", { bot: name });
  if (speed === "strong") return t("{bot}, strong", { bot: name });
  return speed ? `${name}:${speed}` : name;
}

/** Action notation ("bid 16", "build Köln") shown as notation: left to right in every language. */
export function notation(text) {
  return h("bdi", { class: "notation", dir: "ltr" }, String(text));
}

/** "Germany · 3 players · first game" */
export function gameTitle(map, players, variant) {
  return variant === "first_game"
    ? tn("{map} · {n} player · first game", "{map} · {n} players · first game", players, { map })
    : tn("{map} · {n} player", "{map} · {n} players", players, { map });
}

/** The round, the Step and the phase, as pills for the top bar (the replay viewer's too). */
export function roundPills(view) {
  return [
    h("span", { class: "pill", "data-round": view.round }, t("Round {round}", { round: view.round })),
    h("span", { class: "pill" }, t("Step {step}", { step: view.step })),
    h("span", { class: "pill phase" }, phaseName(view.phase)),
  ];
}

/** Who won, as a sentence with their chips: how = "status" (the top bar) or "title" (the end screen). */
export function winnersLine(winners, how) {
  const chips = listOf(winners.map((seat) => playerChip(seat)));
  const text = how === "title"
    ? tn("{winners} wins!", "{winners} share the win!", winners.length)
    : tn("{winners} wins", "{winners} share the win", winners.length);
  return withNodes(text, { winners: chips });
}

export function payment(cities) {
  return PAYMENT[Math.min(Math.max(cities, 0), PAYMENT.length - 1)];
}

export function playerName(seat) {
  return playerNames()[seat] || `P${seat}`;
}

/** The outline of a player's marker shape of "radius" r around (0, 0), as an SVG path. */
export function shapePath(seat, r) {
  const polygon = (n, turn) => {
    const points = [];
    for (let i = 0; i < n; i++) {
      const a = turn + (2 * Math.PI * i) / n;
      points.push(`${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`);
    }
    return `M${points.join("L")}Z`;
  };
  switch (PLAYER_SHAPES[seat]) {
    case "square": return `M${-r * 0.86} ${-r * 0.86}H${r * 0.86}V${r * 0.86}H${-r * 0.86}Z`;
    case "triangle": return polygon(3, -Math.PI / 2);
    case "diamond": return polygon(4, -Math.PI / 2);
    case "hexagon": return polygon(6, 0);
    case "pentagon": return polygon(5, -Math.PI / 2);
    default: return `M${-r} 0A${r} ${r} 0 1 0 ${r} 0A${r} ${r} 0 1 0 ${-r} 0Z`;
  }
}

/** A player's marker (SVG elements around 0,0): the shape in their colour with their initial. */
export function playerMarker(seat, r = 8) {
  const triangle = PLAYER_SHAPES[seat] === "triangle";
  const size = triangle ? r * 1.15 : r;
  return s("g", { class: "marker", "data-seat": seat },
    s("path", { d: shapePath(seat, size), fill: PLAYER_COLOURS[seat], class: "marker-shape" }),
    s("text", { class: "marker-initial", x: 0, y: triangle ? r * 0.55 : r * 0.38, "font-size": r * (triangle ? 1.0 : 1.15), fill: seat === 3 ? "#2a2200" : "#fff" },
      PLAYER_INITIALS[seat]));
}

/** A small inline marker for text (chips, buttons). */
export function markerIcon(seat, size = 14) {
  const r = size / 2;
  return s("svg", { class: "pmark", width: size, height: size, viewBox: `${-r - 1} ${-r - 1} ${size + 2} ${size + 2}`, "aria-hidden": "true" },
    playerMarker(seat, r));
}

/** A small chip naming a player: their marker (shape, colour, initial), colour and the name they gave. */
export function playerChip(seat, suffix = "") {
  const given = seatName(seat);
  return h("span", { class: "pchip", style: `--pc:${PLAYER_COLOURS[seat]}`, "data-seat": seat },
    markerIcon(seat, 14), playerName(seat), given ? h("span", { class: "given-name" }, given) : null, suffix);
}

export { elektro } from "./i18n.js";

/** A resource token icon (a small coloured shape per resource). */
export function resourceIcon(resource, size = 12) {
  const colour = RESOURCE_COLOURS[resource];
  const half = size / 2;
  let shape;
  if (resource === "hybrid") {
    // Coal or oil: a token split between the two colours.
    return s("svg", { class: "res-icon res-hybrid", width: size, height: size, viewBox: `0 0 ${size} ${size}`, "aria-label": resourceName("hybrid"), role: "img" },
      s("path", { d: `M1 1H${size - 1}L1 ${size - 1}Z`, fill: RESOURCE_COLOURS.coal }),
      s("path", { d: `M${size - 1} 1V${size - 1}H1Z`, fill: RESOURCE_COLOURS.oil }),
      s("rect", { x: 1, y: 1, width: size - 2, height: size - 2, rx: 2, fill: "none", stroke: "#fff", "stroke-width": 0.8 }));
  }
  if (resource === "coal") shape = s("rect", { x: 1, y: 1, width: size - 2, height: size - 2, rx: 2, fill: colour });
  else if (resource === "oil") shape = s("path", {
    d: `M${half} 1 C ${half} 1 ${size - 1.5} ${half + 1} ${size - 1.5} ${size * 0.66} A ${half - 1.5} ${half - 1.5} 0 0 1 1.5 ${size * 0.66} C 1.5 ${half + 1} ${half} 1 ${half} 1 Z`,
    fill: colour,
  });
  else if (resource === "garbage") shape = s("rect", { x: 1.5, y: 2, width: size - 3, height: size - 3, rx: 1, fill: colour, stroke: "#8a7214", "stroke-width": 1 });
  else shape = s("circle", { cx: half, cy: half, r: half - 1, fill: colour, stroke: "#fff", "stroke-width": 1.2 });
  return s("svg", { class: `res-icon res-${resource}`, width: size, height: size, viewBox: `0 0 ${size} ${size}`, "aria-label": resourceName(resource), role: "img" }, shape);
}

/** Show a short message at the bottom of the screen: a text, a node, or a list of both. */
export function toast(message, kind = "info", ms = 3500) {
  let box = document.getElementById("toasts");
  if (!box) {
    box = h("div", { id: "toasts", "aria-live": "polite" });
    document.body.append(box);
  }
  const note = h("div", { class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status" }, ...(Array.isArray(message) ? message : [message]));
  box.append(note);
  setTimeout(() => note.classList.add("leaving"), ms);
  setTimeout(() => note.remove(), ms + 400);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (err) {
    const area = h("textarea", { style: "position:fixed;opacity:0" });
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

export function absoluteLink(path) {
  return new URL(path, window.location.origin).href;
}

/**
 * Phones: the Log and Chat tabs end where the decision panel (kept at the bottom of the screen)
 * begins, so their newest lines are never under it: the page learns what is above the panels
 * (top bar, tabs) and the decision panel's height (css/app.css uses both).
 */
export function fitBetweenBars() {
  const layout = document.querySelector(".game-layout");
  const decision = document.getElementById("decision");
  const measure = () => {
    document.body.style.setProperty("--above-panels", `${layout.offsetTop}px`);
    document.body.style.setProperty("--decision-height", `${decision.offsetHeight}px`);
  };
  measure();
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(measure);
    for (const node of [...document.querySelectorAll(".topbar, .replay-bar, #phone-tabs"), decision]) watch.observe(node);
  }
}
