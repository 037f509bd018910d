// My games: every game this browser holds a seat in (the seat tokens kept in localStorage), asked
// of the server in one request (POST /api/my-games), the games waiting for one of these seats first.
import { api, forgetSeat, gamesHeld, h, playerChip, seatsHeld, toast } from "./common.js";
import { pt, setUpLanguage, t, tn } from "./i18n.js";
import { setSeatNames } from "./names.js";

const $ = (id) => document.getElementById(id);
/** The server answers about this many seats at once. */
const MOST = 50;

function phaseWords(phase) {
  switch (phase) {
    case "auction": return t("Auction");
    case "resources": return t("Buy resources");
    case "build": return t("Build");
    case "bureaucracy": return t("Bureaucracy");
    case "over": return t("Game over");
    default: return phase || "";
  }
}

function mapWords(map) {
  return map === "usa" ? "USA" : map ? map[0].toUpperCase() + map.slice(1) : "";
}

function heldSeats() {
  const seats = [];
  for (const gameId of gamesHeld()) {
    for (const [seat, token] of Object.entries(seatsHeld(gameId))) {
      if (token) seats.push({ game_id: gameId, seat: Number(seat), token });
    }
  }
  return seats;
}

function item(game) {
  setSeatNames(game.players);
  const seat = game.your_turn ? game.to_act : game.seats[0];
  const link = `/game/${encodeURIComponent(game.game_id)}?seat=${seat}`;
  const status = game.over
    ? h("span", {}, ...game.winners.flatMap((winner, i) => [i ? " & " : "", playerChip(winner)]), " ", tn("wins", "share the win", game.winners.length))
    : game.your_turn ? h("span", { class: "your-turn" }, t("Your turn"))
      : game.to_act !== null ? h("span", {}, t("Waiting for"), " ", playerChip(game.to_act)) : "";
  return h("div", { class: `mine-item${game.your_turn ? " your-turn" : ""}${game.over ? " over" : ""}`, "data-game": game.game_id },
    h("div", {},
      h("b", {}, `${mapWords(game.map)} · `, tn("{n} player", "{n} players", game.players.length)), " ", status,
      h("div", { class: "meta" }, game.over ? t("Finished after round {round}", { round: game.round })
        : t("Round {round} · Step {step} · {phase}", { round: game.round, step: game.step, phase: phaseWords(game.phase) })),
      h("div", { class: "mine-players" }, ...game.players.map((player) => h("span", {},
        playerChip(player.seat, game.seats.includes(player.seat) ? ` (${t("you")})` : player.kind === "bot" ? ` (${player.bot})` : ""))))),
    h("div", { class: "buttons", style: "margin:0" },
      h("a", { class: `btn small ${game.your_turn ? "primary" : "secondary"}`, href: link }, game.over ? t("Results") : game.your_turn ? pt("my games", "Play") : t("Open"))));
}

function gone(refused) {
  return h("div", { class: "mine-item gone", "data-game": refused.game_id },
    h("div", {}, h("b", {}, refused.game_id), " ",
      h("div", { class: "meta" }, refused.error.code === "unknown_game" ? t("This game no longer exists (unfinished games expire when nobody plays).") : t("This browser's key for the seat no longer works."))),
    h("div", { class: "buttons", style: "margin:0" },
      h("button", { type: "button", class: "btn small ghost", onclick: () => { forgetSeat(refused.game_id, refused.seat); refresh(); } }, t("Forget"))));
}

async function refresh() {
  const list = $("mine-list");
  const seats = heldSeats();
  if (!seats.length) {
    list.replaceChildren(h("div", { class: "empty-note" }, t("This browser holds no seat yet."), " ", h("a", { href: "/" }, t("Start or join a game in the lobby."))));
    return;
  }
  let answer;
  try {
    answer = await api("/api/my-games", { method: "POST", body: { seats: seats.slice(-MOST) } });
  } catch (err) {
    list.replaceChildren(h("div", { class: "empty-note error-text" }, err.message));
    return;
  }
  const games = answer.games || [];
  const waiting = games.filter((game) => game.your_turn);
  const playing = games.filter((game) => !game.your_turn && !game.over);
  const over = games.filter((game) => game.over);
  const section = (title, rows) => (rows.length ? [h("h3", { class: "mine-section" }, title), ...rows.map(item)] : []);
  list.replaceChildren(
    ...section(t("Waiting for you"), waiting),
    ...section(t("In play"), playing),
    ...section(t("Finished"), over),
    ...((answer.refused || []).length ? [h("h3", { class: "mine-section" }, t("Gone")), ...answer.refused.map(gone)] : []),
  );
  if (seats.length > MOST) toast(t("Showing the newest {n} seats.", { n: MOST }), "info");
}

setUpLanguage().then(() => {
  $("mine-refresh").addEventListener("click", refresh);
  refresh();
  setInterval(refresh, 15000);
});
