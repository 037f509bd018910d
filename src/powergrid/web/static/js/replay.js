// The replay viewer: a finished game, a game in play up to now (as a spectator saw it), or a record
// file. Step by action or by round, jump to a round and phase, or drag the slider; the server
// rebuilds each position (the browser has no engine).
import { Board } from "./board.js";
import { analysisPanel } from "./coach.js";
import { changesBetween, showChanges } from "./changes.js";
import { api, fitBetweenBars, gameTitle, h, mapName, phaseName, phaseWord, playerChip, roundPills, toast, winnersLine } from "./common.js";
import { setSeatNames } from "./names.js";
import { waitingFor } from "./decisions.js";
import { setUpLanguage, t, withNodes } from "./i18n.js";
import { LogFolder, actionNodes } from "./log.js";
import { setUpRules } from "./rules.js";
import { renderPlantMarket, renderResourceMarket } from "./markets.js";
import { renderPlayers } from "./players.js";
import { renderStakes } from "./stakes.js";

const $ = (id) => document.getElementById(id);
const gameId = (() => {
  const parts = window.location.pathname.split("/").filter(Boolean);
  return parts.length > 1 ? decodeURIComponent(parts[1]) : null;
})();

const replay = {
  source: null,     // {kind: "game"} or {kind: "record", record}
  index: [],        // per action: [round, phase, step, seat, action]
  steps: 0,
  over: false,
  step: 0,
  shown: null,      // the position on screen
  cache: new Map(), // step -> position
  wanted: null,     // the step the latest request is for (older answers are dropped)
  board: null,
  mapInfo: null,
  seats: [],
  playing: null,
};

async function fetchPosition(step) {
  if (replay.cache.has(step)) return replay.cache.get(step);
  let position;
  if (replay.source.kind === "game") {
    position = await api(`/api/games/${encodeURIComponent(gameId)}/replay/${step}`);
  } else {
    position = await api("/api/replay", { method: "POST", body: { record: replay.source.record, step } });
  }
  if (replay.cache.size > 300) replay.cache.delete(replay.cache.keys().next().value);
  replay.cache.set(step, position);
  return position;
}

async function go(step) {
  step = Math.max(0, Math.min(replay.steps, step));
  replay.step = step;
  replay.wanted = step;
  $("replay-slider").value = String(step);
  drawWhere();
  try {
    const position = await fetchPosition(step);
    if (replay.wanted !== step) return;  // the reader moved on while this one was on its way
    show(position);
  } catch (err) {
    $("replay-error").textContent = err.message;
  }
}

function show(position) {
  const before = replay.shown;
  replay.shown = position;
  const view = position.state;
  const toAct = position.to_act ?? null;
  const houses = view.houses || {};
  if (!replay.board) {
    replay.board = new Board($("board"), replay.mapInfo, {});
  }
  replay.board.setRegions(view.regions);
  replay.board.setHouses(houses, Math.min(3, view.step || 1));
  $("round-info").replaceChildren(...roundPills(view));
  renderStakes($("stakes"), view, { toAct, mapInfo: replay.mapInfo, houses });
  renderPlayers($("players"), view, { seats: replay.seats, mySeats: new Set(), currentSeat: null, toAct });
  renderPlantMarket($("plant-market"), view, { auctionPlant: view.auction && view.auction.plant });
  $("step-badge").textContent = t("Step {step}", { step: view.step });
  renderResourceMarket($("resource-market"), view);
  const log = $("log");
  const folder = new LogFolder();
  log.replaceChildren(...(view.log || []).map((entry) => folder.item(entry, replay.mapInfo)));
  log.scrollTop = log.scrollHeight;
  const last = position.last;
  $("decision").replaceChildren(h("div", { class: "decision" },
    h("h2", { class: "decision-title", "data-step": position.step }, position.step === 0 ? t("The deal") : t("Just played")),
    last ? h("p", { class: "replay-last", "data-step": position.step }, ...actionNodes(last.seat, last.action))
      : h("p", { class: "hint" }, t("Nobody has moved yet.")),
    view.game_over
      ? h("p", { class: "hint replay-winners" }, ...winnersLine(view.winners || [], "status"))
      : toAct !== null ? h("p", { class: "hint" }, ...withNodes(waitingFor(view, "to"), { player: playerChip(toAct) })) : null));
  if (before && Math.abs(before.step - position.step) === 1) showChanges(changesBetween(before.state, view), replay.board);
}

const PHASE_SHORT = { 2: "auction", 3: "resources", 4: "build", 5: "bureaucracy" };

/** "Round 3 · build" */
function roundAndPhase(round, phase) {
  return t("Round {round} · {phase}", { round, phase: PHASE_SHORT[phase] ? phaseWord(PHASE_SHORT[phase]) : phaseName(phase) });
}

function drawWhere() {
  const step = replay.step;
  const at = replay.index[step] || null;  // the action about to be played
  const prev = replay.index[step - 1] || null;
  const where = at || prev;
  const count = t("Action {step} of {steps}", { step, steps: replay.steps });
  const text = where ? t("{count} · {where}", { count, where: roundAndPhase(where[0], where[1]) }) : count;
  $("replay-step").textContent = replay.over ? text : t("{position} (game in play: up to now)", { position: text });
  $("replay-step").dataset.step = String(step);
  const jump = $("replay-jump");
  const key = where ? `${where[0]}:${where[1]}` : "";
  for (const option of jump.options) option.selected = option.dataset.key === key;
  for (const button of document.querySelectorAll("[data-go]")) {
    const back = ["start", "round-back", "back"].includes(button.dataset.go);
    const forward = ["forward", "round-forward", "end"].includes(button.dataset.go);
    button.disabled = (back && step === 0) || (forward && step === replay.steps);
  }
}

/** The first step of each round and phase: [{round, phase, step}] in order. */
function sections() {
  const out = [];
  replay.index.forEach(([round, phase], i) => {
    const last = out[out.length - 1];
    if (!last || last.round !== round || last.phase !== phase) out.push({ round, phase, step: i });
  });
  return out;
}

function roundStart(step, direction) {
  const starts = sections().filter((s, i, all) => i === 0 || all[i - 1].round !== s.round).map((s) => s.step);
  if (direction > 0) return starts.find((s) => s > step) ?? replay.steps;
  const earlier = starts.filter((s) => s < step);
  return earlier.length ? earlier[earlier.length - 1] : 0;
}

function drawJump() {
  const jump = $("replay-jump");
  jump.replaceChildren(...sections().map((s) => h("option", { value: String(s.step), "data-key": `${s.round}:${s.phase}` },
    roundAndPhase(s.round, s.phase))));
}

function togglePlay() {
  const button = document.querySelector('[data-go="play"]');
  if (replay.playing) {
    clearInterval(replay.playing);
    replay.playing = null;
    button.textContent = "▶";
    button.setAttribute("aria-label", t("Play"));
    return;
  }
  if (replay.step >= replay.steps) go(0);
  button.textContent = "⏸";
  button.setAttribute("aria-label", t("Pause"));
  replay.playing = setInterval(() => {
    if (replay.step >= replay.steps) togglePlay();
    else go(replay.step + 1);
  }, 700);
}

function command(name) {
  if (name !== "play" && replay.playing) togglePlay();
  switch (name) {
    case "start": return go(0);
    case "end": return go(replay.steps);
    case "back": return go(replay.step - 1);
    case "forward": return go(replay.step + 1);
    case "round-back": return go(roundStart(replay.step, -1));
    case "round-forward": return go(roundStart(replay.step, 1));
    case "play": return togglePlay();
    default: return null;
  }
}

function setUpControls() {
  for (const button of document.querySelectorAll("[data-go]")) button.addEventListener("click", () => command(button.dataset.go));
  const slider = $("replay-slider");
  slider.addEventListener("input", () => go(Number(slider.value)));
  $("replay-jump").addEventListener("change", (event) => go(Number(event.target.value)));
  document.addEventListener("keydown", (event) => {
    const tag = event.target.tagName;
    if (tag === "INPUT" && event.target.type !== "range") return;
    if (tag === "SELECT" || tag === "TEXTAREA") return;
    const keys = {
      ArrowLeft: event.shiftKey ? "round-back" : "back", ArrowRight: event.shiftKey ? "round-forward" : "forward",
      PageUp: "round-back", PageDown: "round-forward", Home: "start", End: "end", " ": "play",
    };
    if (event.target.closest && event.target.closest("svg.board") && event.key.startsWith("Arrow")) return;  // the map pans
    const name = keys[event.key];
    if (!name) return;
    event.preventDefault();
    command(name);
  });
  for (const button of document.querySelectorAll("#phone-tabs button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  fitBetweenBars();
}

/** Phones: one panel at a time (the map, the players, the markets, the log, the analysis). */
function showTab(tab) {
  document.body.dataset.tab = tab;
  for (const button of document.querySelectorAll("#phone-tabs button")) button.setAttribute("aria-pressed", String(button.dataset.tab === tab));
  if (tab === "log") $("log").scrollTop = $("log").scrollHeight;
}

async function begin(info) {
  replay.index = info.index;
  replay.steps = info.steps;
  replay.over = Boolean(info.over);
  replay.mapInfo = await api(`/api/maps/${encodeURIComponent(info.map)}`);
  replay.seats = info.seats || [];
  // the names the players gave: from the game's seats, or a downloaded record's "names"
  setSeatNames(info.names ? info.names.map((name, seat) => ({ seat, name })) : replay.seats);
  $("game-title").textContent = t("Replay · {game}", { game: gameTitle(mapName(info.map), info.players, info.variant) });
  $("replay-controls").hidden = false;
  $("replay-slider").max = String(info.steps);
  drawJump();
  if (replay.source.kind === "game" && replay.over) {
    $("coach-panel").replaceChildren(analysisPanel(gameId, info.players, {
      onJump: (step) => {
        if (replay.playing) togglePlay();
        if (document.body.dataset.tab === "analysis") showTab("board");  // phones: to the position shown
        go(step);
      },
    }));
    $("coach-panel").hidden = false;
    $("analysis-tab").hidden = false;  // phones: the analysis has a tab of its own
  }
  // a finished game opens at the deal; a game in play at its present
  await go(replay.over ? 0 : info.steps);
}

async function openRecord(file) {
  $("replay-error").textContent = "";
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (err) {
    $("replay-error").textContent = t("That file is not a game record (it is not JSON).");
    return;
  }
  if (!record || !record.config || !Array.isArray(record.actions)) {
    $("replay-error").textContent = t("That file is not a game record (it has no config and actions).");
    return;
  }
  replay.source = { kind: "record", record: { config: record.config, actions: record.actions } };
  replay.cache.clear();
  replay.board = null;
  try {
    const first = await api("/api/replay", { method: "POST", body: { record: replay.source.record, step: 0, index: true } });
    replay.cache.set(0, first);
    await begin({ ...first, names: Array.isArray(record.names) ? record.names : null, seats: (record.bots || []).reduce((seats, bot) => { seats[bot.seat] = { kind: "bot", bot: bot.bot }; return seats; }, []) });
  } catch (err) {
    $("replay-error").textContent = err.message;
  }
}

async function start() {
  setUpControls();
  if (!gameId) {
    $("replay-open").hidden = false;
    $("record-file").addEventListener("change", (event) => { if (event.target.files[0]) openRecord(event.target.files[0]); });
    $("decision").replaceChildren(h("div", { class: "decision" }, h("h2", { class: "decision-title" }, t("Replay a game")),
      h("p", { class: "hint" }, t("Open a record file, or choose a game in the lobby."))));
    return;
  }
  replay.source = { kind: "game" };
  const back = $("back-to-game");
  back.href = `/game/${encodeURIComponent(gameId)}`;
  back.hidden = false;
  try {
    await begin(await api(`/api/games/${encodeURIComponent(gameId)}/replay`));
  } catch (err) {
    $("replay-error").textContent = err.message;
    toast(err.message, "error");
  }
}

setUpLanguage().then(() => {
  setUpRules(() => replay.shown && replay.shown.state);
  return start();
});
