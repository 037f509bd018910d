// Clocks and absent players: the time-control choice in the lobby, each player's clock on the
// table (ticking from the server's time), the warning when one runs low, Leave, and taking a seat
// back from its stand-in bot. The server computes the clocks (a view's "clocks"); this module only
// counts down the running one between views.
import { api, botName, h, playerChip, playerName, toast } from "./common.js";
import { t, tn, withNodes } from "./i18n.js";

const $ = (id) => document.getElementById(id);

// --- the server's time --------------------------------------------------------------------------
let offset = 0; // the server's clock minus this browser's, in seconds

/** Learn the server's time (a browser's clock may be minutes off): the middle of a round trip. */
export async function syncServerTime() {
  const sent = Date.now();
  const reply = await api("/api/clock");
  const back = Date.now();
  if (reply && typeof reply.now === "number") offset = reply.now - (sent + back) / 2000;
}

/** The server's time now (seconds since the epoch), by this browser's clock and the offset learnt. */
export function serverNow() {
  return Date.now() / 1000 + offset;
}

// --- words -------------------------------------------------------------------------------------
function pad(n) {
  return String(n).padStart(2, "0");
}

/** A live clock: 7:05, or 1:02:03 past an hour. */
export function liveTime(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  return hours ? `${hours}:${pad(minutes)}:${pad(s % 60)}` : `${minutes}:${pad(s % 60)}`;
}

/** A long span in words: "2 d 5 h", "3 h 20 min", "12 min", "40 s". */
export function longTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days) return t("{d} d {h} h", { d: days, h: hours });
  if (hours) return t("{h} h {m} min", { h: hours, m: minutes });
  if (minutes) return t("{m} min", { m: minutes });
  return t("{s} s", { s });
}

/** A time control in words: "live 8 min + 15 s", "correspondence 1 d a turn, 7 d vacation". */
export function controlWords(control) {
  if (!control) return "";
  if (control.kind === "live") {
    const minutes = control.bank_s / 60;
    const bank = Number.isInteger(minutes) ? tn("{n} minute", "{n} minutes", minutes) : longTime(control.bank_s);
    return t("live: {bank} + {inc} s a move", { bank, inc: control.increment_s });
  }
  if (control.kind === "correspondence") {
    return t("correspondence: {turn} a turn, {vacation} vacation", { turn: longTime(control.turn_s), vacation: longTime(control.vacation_s) });
  }
  return "";
}

function reasonWords(reason) {
  if (reason === "time") return t("their time ran out");
  if (reason === "left") return t("they left");
  if (reason === "away") return t("they are away");
  return "";
}

// --- the lobby -------------------------------------------------------------------------------
const choice = { kind: "none" };

/** Fill the lobby's clock and stand-in fields (``bots``: the bot names the server offers). */
export function setUpClockForm(bots) {
  const box = $("clock-choice");
  if (!box) return;
  const kinds = [["none", t("No clock")], ["live", t("Live")], ["correspondence", t("Correspondence")]];
  const draw = () => {
    box.replaceChildren(...kinds.map(([value, label]) => h("button", {
      type: "button", "aria-pressed": String(value === choice.kind), "data-value": value,
      onclick: () => { choice.kind = value; draw(); },
    }, label)));
    $("clock-live").hidden = choice.kind !== "live";
    $("clock-correspondence").hidden = choice.kind !== "correspondence";
    const note = $("clock-note");
    note.textContent = choice.kind === "live"
      ? t("Each player has a bank of time and gains a few seconds with every move; when it runs out, the stand-in plays for them.")
      : choice.kind === "correspondence"
        ? t("Each turn has a deadline; time beyond it comes out of the player's vacation, and then the stand-in plays for them.")
        : t("Nobody is hurried (games with friends at one table, hot-seat).");
  };
  draw();
  const select = $("stand_in");
  if (select && bots && bots.length) {
    select.replaceChildren(...bots.map((bot) => h("option", { value: bot, selected: bot === "heuristic" }, botName(bot))));
  }
}

/** The create-game request's clock fields: {time_control, stand_in}. */
export function clockRequest() {
  const number = (id) => Number($(id).value);
  const body = {};
  if (choice.kind === "live") {
    body.time_control = { kind: "live", bank_s: Math.round(number("bank_min") * 60), increment_s: number("increment_s") };
  } else if (choice.kind === "correspondence") {
    body.time_control = { kind: "correspondence", turn_s: Math.round(number("turn_h") * 3600), vacation_s: Math.round(number("vacation_d") * 86400) };
  }
  const select = $("stand_in");
  if (select && select.value) body.stand_in = select.value;
  return body;
}

/** A time control in a few words, for the top bar: "Clock 8 min + 15 s", "Clock 1 d a turn". */
function shortWords(control) {
  if (control.kind === "live") return t("Clock {bank} + {inc} s", { bank: longTime(control.bank_s), inc: control.increment_s });
  return t("Clock {turn} a turn", { turn: longTime(control.turn_s) });
}

/** The lobby list's badge for a game's clock (null without one). */
export function clockBadge(control) {
  if (!control || control.kind === "none") return null;
  return h("span", { class: `status-badge status-clock clock-${control.kind}`, title: controlWords(control) },
    control.kind === "live" ? t("live {m}+{s}", { m: Math.round(control.bank_s / 60), s: control.increment_s }) : t("correspondence"));
}

// --- the table ---------------------------------------------------------------------------------
let ctx = null;
let announced = -1; // the newest notice version shown in the log
let warned = "";    // "<version>:<seat>" whose low clock was announced

/** Start the clocks on the game page: ``c`` = {game, gameId, accept}. */
export function setUpClocks(c) {
  ctx = c;
  syncServerTime().catch(() => {});
  setInterval(() => syncServerTime().catch(() => {}), 300000);
  setInterval(tick, 250);
  const leave = $("leave");
  if (leave) leave.addEventListener("click", () => pressLeave(leave));
}

function clocksOf(game) {
  return (game.message && game.message.clocks) || null;
}

/** Whether a stand-in plays ``seat`` now (or the game was abandoned): no decision form for it. */
export function standsIn(message, seat) {
  const clocks = message && message.clocks;
  if (!clocks || seat === null || seat === undefined) return false;
  return Boolean(clocks.abandoned || (clocks.seats[seat] && clocks.seats[seat].stand_in));
}

function lowAt(clocks) {
  if (clocks.kind === "live") return Math.max(10, Math.min(60, clocks.bank_s * 0.2));
  if (clocks.kind === "correspondence") return Math.max(600, clocks.turn_s * 0.1);
  return 0;
}

/** The seat's time left now (seconds), the running one counted down from the server's time. */
function leftNow(clocks, seat) {
  const item = clocks.seats[seat];
  if (!item || typeof item.left_s !== "number") return null;
  if (clocks.running !== seat || typeof clocks.deadline !== "number") return item.left_s;
  return Math.max(0, clocks.deadline - serverNow());
}

function clockText(clocks, seat, left) {
  if (clocks.kind === "live") return liveTime(left);
  // correspondence: the turn's time, then the vacation left
  const item = clocks.seats[seat];
  if (clocks.running !== seat) return t("vacation {left}", { left: longTime(item.vacation_s) });
  const intoVacation = left <= item.vacation_s;
  return intoVacation ? t("on vacation: {left}", { left: longTime(left) }) : longTime(left - item.vacation_s);
}

/** Redraw the clocks and stand-in tags on the player cards, the banner and the buttons (after draw()). */
export function drawClocks(game) {
  const clocks = clocksOf(game);
  const info = $("clock-info");
  if (info) {
    info.textContent = clocks && clocks.kind !== "none" ? shortWords(clocks) : "";
    info.title = clocks ? controlWords(clocks) : "";
    info.hidden = !info.textContent;
  }
  drawLeave(game, clocks);
  drawBanner(game, clocks);
  noteNotice(game);
  if (!clocks) return;
  for (const item of clocks.seats) {
    const header = document.querySelector(`.player[data-seat='${item.seat}'] header`);
    if (!header) continue;
    if (item.stand_in) {
      header.append(h("span", { class: "tag stand-in", "data-stand-in": item.stand_in, title: reasonWords(item.stand_in) },
        t("{bot} bot plays", { bot: clocks.stand_in_bot })));
    }
    if (typeof item.left_s === "number") {
      header.append(h("span", { class: "clock", "data-seat": item.seat, role: "timer", "aria-label": t("{name}'s clock", { name: playerName(item.seat) }) }));
    }
  }
  if (clocks.abandoned) $("turn-status").replaceChildren(h("span", { class: "status-badge status-abandoned" }, t("abandoned")));
  else if (game.seat !== null && clocks.seats[game.seat] && clocks.seats[game.seat].stand_in && game.held[game.seat]) {
    $("turn-status").replaceChildren(t("The {bot} bot plays for you", { bot: clocks.stand_in_bot }));
  }
  tick();
}

function tick() {
  const game = ctx && ctx.game;
  const clocks = game && clocksOf(game);
  if (!clocks || clocks.kind === "none") return;
  const low = lowAt(clocks);
  for (const node of document.querySelectorAll(".player .clock[data-seat]")) {
    const seat = Number(node.dataset.seat);
    const left = leftNow(clocks, seat);
    if (left === null) continue;
    const running = clocks.running === seat;
    const turnLeft = clocks.kind === "correspondence" && running ? left - clocks.seats[seat].vacation_s : left;
    const isLow = running && turnLeft <= low;
    node.textContent = clockText(clocks, seat, left);
    node.classList.toggle("running", running);
    node.classList.toggle("low", isLow);
    node.dataset.left = String(Math.round(left));
    if (isLow && game.held[seat] && warned !== `${game.version}:${seat}`) {
      warned = `${game.version}:${seat}`;
      toast(t("{name}: your time is running out ({left} left)", { name: playerName(seat), left: clockText(clocks, seat, left) }), "error", 5000);
    }
  }
}

function drawBanner(game, clocks) {
  const banner = $("absence");
  if (!banner) return;
  const seat = game.seat;
  if (clocks && clocks.abandoned) {
    banner.hidden = false;
    banner.replaceChildren(h("p", {}, t("Every player left: the game was abandoned.")));
    return;
  }
  const item = clocks && seat !== null && clocks.seats[seat];
  if (!item || !item.stand_in || !game.held[seat]) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  banner.hidden = false;
  banner.replaceChildren(
    h("p", {}, playerChip(seat), " ", t("The {bot} bot is playing for you: {why}.", { bot: clocks.stand_in_bot, why: reasonWords(item.stand_in) })),
    h("button", { type: "button", class: "btn primary", id: "take-back-seat", onclick: () => takeSeatBack(seat) }, t("Take my seat back")));
}

function drawLeave(game, clocks) {
  const button = $("leave");
  if (!button) return;
  const seat = game.seat;
  const over = Boolean(game.message && (game.message.state.game_over || (clocks && clocks.abandoned)));
  const mine = seat !== null && game.held[seat] && clocks && clocks.seats[seat] && !clocks.seats[seat].stand_in;
  button.hidden = !mine || over;
  if (button.dataset.armed !== "1") button.textContent = t("Leave");
}

async function pressLeave(button) {
  // Two presses: the first asks, the second leaves (a slip must not hand a seat over).
  if (button.dataset.armed !== "1") {
    button.dataset.armed = "1";
    button.textContent = t("Leave the game? Press again");
    setTimeout(() => { button.dataset.armed = ""; button.textContent = t("Leave"); }, 4000);
    return;
  }
  button.dataset.armed = "";
  const { game, gameId, accept } = ctx;
  try {
    const reply = await api(`/api/games/${encodeURIComponent(gameId)}/leave`, { method: "POST", token: game.held[game.seat], body: { seat: game.seat } });
    accept(reply, null);
    toast(t("You left: a bot plays your seat. Come back with your seat link at any time."), "info", 6000);
  } catch (err) {
    toast(err.message, "error", 6000);
  }
}

async function takeSeatBack(seat) {
  const { game, gameId, accept } = ctx;
  try {
    const reply = await api(`/api/games/${encodeURIComponent(gameId)}/return`, { method: "POST", token: game.held[seat], body: { seat } });
    accept(reply, null);
    toast(t("Your seat is yours again."), "info", 4000);
  } catch (err) {
    toast(err.message, "error", 6000);
  }
}

/** A notice (a seat handed to its stand-in, or taken back) as a line at the end of the log. */
function noteNotice(game) {
  const message = game.message;
  const last = message && message.last;
  if (!last || typeof last.action !== "string" || !last.action.startsWith("@") || message.version <= announced) return;
  announced = message.version;
  const clocks = clocksOf(game);
  const bot = clocks ? botName(clocks.stand_in_bot) : "";
  const reason = last.action.split(" ")[1];
  const words = last.action === "@back" ? t("{player} takes their seat back")
    : reason === "time" ? t("{player} ran out of time: the {bot} bot plays for them", { bot })
      : reason === "left" ? t("{player} left: the {bot} bot plays for them", { bot })
        : t("{player} is away: the {bot} bot plays for them until they are back", { bot });
  const log = $("log");
  if (log) {
    log.append(h("li", { class: "notice fresh", "data-version": message.version },
      ...withNodes(words, { player: playerChip(last.seat) })));
    log.scrollTop = log.scrollHeight;
  }
}
