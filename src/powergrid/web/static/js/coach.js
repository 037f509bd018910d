// The coach in the browser: a Hint button at the player's decision (the suggestion drawn on the
// board, the plant market and the resource market), and a finished game's analysis.
import { lineChart } from "./charts.js";
import { api, h, notation, phaseWord, playerChip, toast } from "./common.js";
import { elektro, language, pt, t, withNodes } from "./i18n.js";

const HINT_MARK = "coach-hint";
const POLL_MS = 700;

function gamePath(gameId, tail) {
  return `/api/games/${encodeURIComponent(gameId)}/${tail}`;
}

/** Take the previous suggestion off the board and the markets. */
export function clearHintMarks() {
  for (const node of document.querySelectorAll(`.${HINT_MARK}`)) node.classList.remove(HINT_MARK);
}

/** Draw a hint's suggestion: its cities on the board, its plants, its resources. */
function markHint(show) {
  clearHintMarks();
  if (!show) return;
  for (const city of show.cities || []) {
    document.querySelector(`#board [data-city="${CSS.escape(city)}"]`)?.classList.add(HINT_MARK);
  }
  for (const plant of show.plants || []) {
    for (const card of document.querySelectorAll(`#plant-market [data-plant="${plant}"], #decision [data-plant="${plant}"], #players [data-plant="${plant}"]`)) {
      card.classList.add(HINT_MARK);
    }
  }
  for (const res of Object.keys(show.resources || {})) {
    document.querySelector(`#resource-market [data-resource="${res}"]`)?.classList.add(HINT_MARK);
  }
}

function percent(x) {
  return new Intl.NumberFormat(language(), { style: "percent" }).format(Math.round(100 * x) / 100);
}

/** The actions that play the hint's step for this turn (a build's every city, a purchase's every unit). */
export function hintSteps(hint) {
  return hint.steps && hint.steps.length ? hint.steps : [hint.action];
}

/** A signed figure, kept left to right: in a right-to-left page "−5%" would otherwise show its
 * minus sign after the number. */
function signed(text) {
  return h("bdi", { dir: "ltr" }, text);
}

/** A plan's position against the best rival after the look-ahead: "+12 E", "−34 E" (a minus sign). */
function standing(score) {
  if (typeof score !== "number") return "";
  const amount = Math.round(score);
  return signed((amount > 0 ? "+" : amount < 0 ? "−" : "") + elektro(Math.abs(amount)));
}

function hintCard(hint, actAll) {
  const best = hint.best || { plan: hint.action, win_chance: hint.win_chance };
  const choices = [best, ...(hint.alternatives || [])];
  const rows = choices.map((choice, i) => h("tr", { class: i === 0 ? "best" : "" },
    h("td", {}, choice.plan), h("td", { class: "num" }, percent(choice.win_chance)),
    h("td", { class: "num" }, standing(choice.score))));
  // the coach ranks as the expert search does: the chance and the position together (docs/coach.md);
  // said whenever a plan ranked lower shows a higher chance than the one just above it
  const weighed = choices.some((choice, i) => i > 0 && choice.win_chance > choices[i - 1].win_chance + 0.005);
  // the step in words (a hint from an older server has only the notation)
  const headline = hint.headline ? h("b", { class: "coach-move" }, hint.headline) : h("b", { class: "coach-move" }, notation(hint.action));
  return h("div", { class: "coach-card", role: "status" },
    h("div", { class: "coach-action" }, ...withNodes(t("Suggested: {action}"), { action: headline })),
    h("p", { class: "coach-reason" }, hint.reason),
    h("table", { class: "coach-alternatives" },
      h("thead", {}, h("tr", {}, h("th", {}, t("plan")), h("th", { class: "num" }, t("chance to win")),
        h("th", { class: "num" }, pt("column", "against the best rival")))),
      h("tbody", {}, ...rows)),
    weighed ? h("p", { class: "muted coach-note" }, t("Ranked by the chance to win and by where the plan leaves you against the best rival, in Elektro: a higher chance can come with a weaker position.")) : null,
    actAll ? h("button", { type: "button", class: "btn small primary coach-play", "data-steps": hintSteps(hint).join(" | "), onclick: () => actAll(hintSteps(hint)) },
      t("Play it")) : null);
}

/**
 * The Hint button for the seat to act (ctx: {gameId, seat, version, token, actAll}).
 * Shows how many hints are left; hidden when the game's hints are off.
 */
export function hintBox(ctx) {
  clearHintMarks();
  const box = h("div", { class: "coach-box", "data-version": ctx.version });
  const button = h("button", { type: "button", class: "btn small secondary coach-button", disabled: true }, t("Hint"));
  const left = h("span", { class: "muted coach-left" });
  const answer = h("div", { class: "coach-answer" });
  box.append(h("div", { class: "coach-bar" }, button, left), answer);
  const path = gamePath(ctx.gameId, "hints");
  const current = () => box.isConnected;

  function showStatus(status) {
    if (!status.enabled) {
      box.hidden = true;
      return;
    }
    left.textContent = t("{left} of {total} hints left", { left: status.left, total: status.per_seat });
    button.disabled = status.left <= 0 && status.status !== "done";
    if (status.status === "done" && status.hint) {
      answer.replaceChildren(hintCard(status.hint, ctx.actAll));
      markHint(status.hint.show);
      button.disabled = true;
    } else if (status.status === "pending") {
      answer.replaceChildren(h("p", { class: "muted coach-wait" }, t("The coach is thinking…")));
      setTimeout(poll, POLL_MS);
    } else if (status.status === "stale") {
      answer.replaceChildren(h("p", { class: "muted" }, t("The game moved on before the hint was ready.")));
    }
  }

  async function poll() {
    if (!current()) return;
    try {
      showStatus(await api(`${path}?seat=${ctx.seat}`, { token: ctx.token }));
    } catch (err) {
      if (err.status === 404) box.hidden = true; // a server without the coach
      /* otherwise the next redraw asks again */
    }
  }

  button.addEventListener("click", async () => {
    button.disabled = true;
    answer.replaceChildren(h("p", { class: "muted coach-wait" }, t("The coach is thinking…")));
    try {
      const status = await api(path, { method: "POST", token: ctx.token, body: { seat: ctx.seat, version: ctx.version } });
      if (current()) showStatus(status);
    } catch (err) {
      answer.replaceChildren();
      button.disabled = false;
      const words = { hint_limit: t("You have used all your hints."), hints_off: t("Hints are off in this game.") };
      toast(words[err.code] || t("No hint: {why}", { why: err.message }), "error", 5000);
      if (err.code === "hint_limit") poll();
    }
  });
  setTimeout(poll, 0); // once the box is on the page
  return box;
}

/**
 * A finished game's analysis (the end screen, the replay viewer): start it, watch its progress,
 * show it. options.onJump(step), when given, makes each costly decision a link to its position.
 */
export function analysisPanel(gameId, players, options = {}) {
  const box = h("section", { class: "coach-analysis", "aria-label": t("Analysis") }, h("h3", {}, t("Analysis")));
  const body = h("div", {});
  box.append(body);
  const path = gamePath(gameId, "analysis");

  function show(data) {
    if (data.status === "none") {
      body.replaceChildren(
        h("p", { class: "hint" }, t("The coach can replay the game and find each player's costliest decisions.")),
        h("button", { type: "button", class: "btn small secondary coach-analyse", onclick: start }, t("Analyse the game")));
      return;
    }
    if (data.status !== "done") {
      const done = data.progress ? data.progress.done : 0;
      const total = data.progress && data.progress.total ? data.progress.total : null;
      body.replaceChildren(
        h("p", { class: "muted" }, total ? t("Judging decisions: {done} of {total}", { done, total }) : t("Waiting for a worker…")),
        h("progress", { class: "coach-progress", max: total || 1, value: total ? done : 0 }));
      setTimeout(load, 1000);
      return;
    }
    const analysis = data.analysis;
    const series = analysis.chances.map((entry) => entry.chances.map((c) => Math.round(100 * c)));
    const rows = [];
    for (let seat = 0; seat < players; seat++) {
      const worst = analysis.costliest[String(seat)] || [];
      if (!worst.length) rows.push(h("tr", {}, h("td", {}, playerChip(seat)), h("td", { colspan: 4, class: "muted" }, t("no decision cost a clear amount"))));
      for (const d of worst) {
        const words = t("round {round}, {phase}", { round: d.round, phase: phaseWord(d.phase) });
        const when = options.onJump
          ? h("button", { type: "button", class: "linkish coach-jump", "data-step": d.at, title: t("Show this position"), onclick: () => options.onJump(d.at) }, words)
          : words;
        // each cell names its column, for the phone's layout, where the rows are stacked cards
        rows.push(h("tr", {}, h("td", { class: "who" }, playerChip(seat)), h("td", { class: "when" }, when),
          h("td", { class: "done", "data-label": pt("analysis", "Done") }, d.done),
          h("td", { class: "preferred", "data-label": t("The search preferred") }, d.preferred),
          h("td", { class: "num" }, signed(`−${percent(d.cost)}`))));
      }
    }
    body.replaceChildren(
      lineChart(t("Chance to win (%) at the start of each round"), series, players),
      // the chances weigh the seats' players (docs/coach.md), which a reader of the chart cannot see
      h("p", { class: "muted coach-note chart-note" }, t("The chances weigh who plays: each bot by its measured strength, a person as the heuristic bot.")),
      h("table", { class: "coach-costliest" },
        h("thead", {}, h("tr", {}, h("th", {}, t("Player")), h("th", {}, t("When")), h("th", {}, pt("analysis", "Done")),
          h("th", {}, t("The search preferred")), h("th", { class: "num" }, t("Cost")))),
        h("tbody", {}, ...rows)));
  }

  async function load() {
    if (!box.isConnected) return;
    try {
      show(await api(path));
    } catch (err) {
      if (err.status === 404) box.hidden = true; // a server without the coach
      else body.replaceChildren(h("p", { class: "muted" }, t("No analysis: {why}", { why: err.message })));
    }
  }

  async function start() {
    try {
      show(await api(path, { method: "POST" }));
    } catch (err) {
      toast(t("No analysis: {why}", { why: err.message }), "error", 5000);
    }
  }

  setTimeout(load, 0);
  return box;
}
