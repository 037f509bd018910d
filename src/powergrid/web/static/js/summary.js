// The end screen's summary (GET /api/games/{id}/summary: where each player's money went, cost per
// city, cities, powered cities and income per round, time used) and Play again (POST .../again: the
// same seats, bots and settings with a new seed; everyone keeps their seat and key).
import { lineChart } from "./charts.js";
import { api, elektro, h, playerChip, toast } from "./common.js";
import { t } from "./i18n.js";

/** A duration in words: "42 s", "7 min", "1 h 5 min". */
function duration(seconds) {
  if (seconds < 10) return t("{n} s", { n: Math.round(seconds * 10) / 10 });
  if (seconds < 60) return t("{n} s", { n: Math.round(seconds) });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("{n} min", { n: minutes });
  return t("{h} h {m} min", { h: Math.floor(minutes / 60), m: minutes % 60 });
}

function summaryTable(summary, held) {
  const timed = summary.time_used;
  const head = [t("Player"), t("Plants"), t("Resources"), t("Houses"), t("Connections"), t("Spent"), t("Income"),
    t("Cost per city")];
  if (timed) head.push(t("Time used"));
  return h("table", { class: "summary-table", "data-summary": "spending" },
    h("thead", {}, h("tr", {}, ...head.map((text) => h("th", {}, text)))),
    h("tbody", {}, ...summary.players.map((p) => h("tr", { "data-seat": p.seat },
      h("td", {}, playerChip(p.seat, held[p.seat] ? ` ${t("(you)")}` : "")),
      h("td", { "data-kind": "plants" }, elektro(p.plants)),
      h("td", { "data-kind": "resources" }, elektro(p.resources)),
      h("td", { "data-kind": "houses" }, elektro(p.houses)),
      h("td", { "data-kind": "connections" }, elektro(p.connections)),
      h("td", { "data-kind": "spent" }, h("b", {}, elektro(p.spent))),
      h("td", { "data-kind": "income" }, elektro(p.income)),
      h("td", { "data-kind": "cost-per-city" }, p.cost_per_city === null ? "—" : elektro(p.cost_per_city)),
      timed ? h("td", { "data-kind": "time" }, duration(p.time_used_s)) : null))));
}

/** The summary panel: filled in when the server answers. */
export function endSummary(gameId, seats, held) {
  const box = h("div", { class: "end-summary", id: "end-summary" }, h("p", { class: "hint" }, t("Loading the summary…")));
  api(`/api/games/${encodeURIComponent(gameId)}/summary`).then((summary) => {
    // the charts start before round 1, as the other end-screen charts do
    const zero = summary.players.map(() => 0);
    const per = Object.fromEntries(Object.entries(summary.per_round).map(([key, rows]) => [key, rows.length ? [zero, ...rows] : []]));
    // replaceChildren() would write a null child as the text "null": the list without gaps
    box.replaceChildren(...[
      h("h3", {}, t("Where the money went")),
      h("div", { class: "table-scroll" }, summaryTable(summary, held)),
      summary.time_used ? null : h("p", { class: "hint" }, t("This game's log holds no times: time used is left out.")),
      h("div", { class: "charts" },
        per.cities.length ? lineChart(t("Cities each round"), per.cities, seats) : null,
        per.powered.length ? lineChart(t("Cities powered each round"), per.powered, seats) : null,
        per.income.length ? lineChart(t("Income each round"), per.income, seats) : null),
    ].filter(Boolean));
  }).catch((err) => box.replaceChildren(h("p", { class: "hint" }, t("No summary: {reason}", { reason: err.message }))));
  return box;
}

function newLinks(newGameId, held) {
  const seats = Object.keys(held).map(Number).sort();
  return h("div", { class: "again-links", id: "again-links" },
    h("p", {}, t("The next game is ready.")),
    ...seats.map((seat) => h("a", { class: "btn primary", "data-action": "join-again", href: `/game/${encodeURIComponent(newGameId)}#seat=${seat}&token=${encodeURIComponent(held[seat])}` },
      t("Play on as"), " ", playerChip(seat))),
    seats.length ? null : h("a", { class: "btn secondary", href: `/game/${encodeURIComponent(newGameId)}` }, t("Watch the next game")));
}

/** Play again: a button for a seat of this game, and the new game's links once anyone pressed it
 * (asked every few seconds while the end screen is open). */
export function playAgain(gameId, held) {
  const box = h("div", { class: "play-again", id: "play-again" });
  const seats = Object.keys(held).map(Number).sort();
  let found = false;
  const show = (newGameId) => {
    if (found) return;
    found = true;
    box.replaceChildren(newLinks(newGameId, held));
  };
  if (seats.length) {
    const seat = seats[0];
    box.append(h("button", {
      type: "button", class: "btn primary", "data-action": "play-again",
      onclick: async (event) => {
        event.target.disabled = true;
        try {
          const made = await api(`/api/games/${encodeURIComponent(gameId)}/again`, { method: "POST", token: held[seat], body: { seat } });
          show(made.new_game_id);
        } catch (err) {
          event.target.disabled = false;
          toast(t("Could not start the next game: {reason}", { reason: err.message }), "error", 6000);
        }
      },
    }, t("Play again")));
  }
  const look = async () => {
    if (found || !box.isConnected) return;
    try {
      const next = await api(`/api/games/${encodeURIComponent(gameId)}/again`);
      show(next.new_game_id);
    } catch (err) {
      setTimeout(look, 3000); // nobody has asked yet (no_rematch)
    }
  };
  setTimeout(look, 0);
  return box;
}
