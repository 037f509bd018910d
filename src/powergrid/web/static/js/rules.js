// The Rules panel: a short reference at the table (the round's phases, the payout table, what ends
// the game), written from docs/rules.md, every sentence a message of its own so it is translated.
import { PAYMENT, elektro, h } from "./common.js";
import { formatNumber, t, tn } from "./i18n.js";

function phases() {
  return h("ol", { class: "rules-phases" },
    h("li", {}, h("b", {}, t("Player order.")), " ",
      t("The player with the most cities goes first; between equals, the one with the highest plant. Round 1 starts in a random order.")),
    h("li", {}, h("b", {}, t("Auction.")), " ",
      t("In turn order, each player opens an auction for a plant of the current market or passes. Bids start at the plant's number; the others raise or drop out. Each player buys at most one plant a round; in round 1 everyone must buy one.")),
    h("li", {}, h("b", {}, t("Buy resources.")), " ",
      t("Last player first, each buys fuel for their plants: a plant stores twice what it burns. Each unit costs the cheapest price left on the track, so prices rise as the market empties.")),
    h("li", {}, h("b", {}, t("Build.")), " ",
      t("Last player first, each builds in cities of the regions in play. A house costs 10, 15 or 20 (the first, second or third space; Step 1 opens one space, Step 2 two, Step 3 three), plus the cheapest connection from the player's network.")),
    h("li", {}, h("b", {}, t("Bureaucracy.")), " ",
      t("Each player runs plants, burning their fuel, and is paid for the cities powered (the table below). Then the resource market is resupplied and the plant market changes.")));
}

function payouts() {
  const head = [h("th", { scope: "row" }, t("Cities powered"))];
  const paid = [h("th", { scope: "row" }, t("Elektro paid"))];
  PAYMENT.forEach((amount, cities) => {
    head.push(h("td", {}, cities === PAYMENT.length - 1 ? t("{n}+", { n: cities }) : formatNumber(cities)));
    paid.push(h("td", {}, formatNumber(amount)));
  });
  return h("div", { class: "rules-table-box" },
    h("table", { class: "rules-payouts" }, h("tbody", {}, h("tr", {}, ...head), h("tr", {}, ...paid))));
}

function ending(view) {
  const stakes = (view && view.stakes) || null;
  const items = [];
  if (stakes && stakes.step2_cities) {
    items.push(h("li", { "data-rule": "step2" }, tn("Step 2 begins after a build phase in which someone has {n} city",
      "Step 2 begins after a build phase in which someone has {n} cities", stakes.step2_cities)));
  }
  items.push(h("li", {}, t("Step 3 begins when its card is drawn from the deck; the market then holds six plants, all open to auction.")));
  items.push(h("li", { "data-rule": "end" }, stakes
    ? tn("The game ends after a build phase in which someone has {n} city",
      "The game ends after a build phase in which someone has {n} cities", stakes.end_cities)
    : t("The game ends after the build phase in which someone reaches the end count of cities.")));
  items.push(h("li", {}, t("There is no bureaucracy that round. Each player scores the cities they could power then with the plants and fuel they hold (never more than the cities they own).")));
  items.push(h("li", {}, t("The highest score wins; ties go to the player with more money, then more cities.")));
  return h("ul", { class: "rules-ending" }, ...items);
}

/** The panel's contents for a view (the end counts come from the game; without one, in words). */
export function rulesCard(view) {
  return h("div", { class: "rules-card" },
    h("h2", { id: "rules-title" }, t("Rules")),
    h("h3", {}, t("A round: five phases")),
    phases(),
    h("h3", {}, t("Payouts")),
    h("p", { class: "hint" }, t("Paid in bureaucracy for the cities powered, never more than the cities a player owns:")),
    payouts(),
    h("p", { class: "hint" }, t("Powering no city pays {amount}.", { amount: elektro(PAYMENT[0]) })),
    h("h3", {}, t("The end of the game")),
    ending(view));
}

/** Open the Rules dialog (closed by its button, Escape or a click outside). */
export function showRules(view) {
  document.getElementById("rules-screen")?.remove();
  const close = () => overlay.remove();
  const overlay = h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-labelledby": "rules-title", id: "rules-screen" },
    h("div", { class: "end-card rules-box" },
      rulesCard(view),
      h("div", { class: "buttons center" },
        h("button", { type: "button", class: "btn primary", "data-action": "close-rules", onclick: close }, t("Close")))));
  overlay.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
  overlay.addEventListener("click", (event) => { if (event.target === overlay) close(); });
  document.body.append(overlay);
  overlay.querySelector("[data-action='close-rules']").focus();
}

/** The Rules button in the top bar; currentView() gives the game's latest view (or null). */
export function setUpRules(currentView) {
  const bar = document.querySelector(".topbar");
  if (!bar || document.getElementById("rules-button")) return;
  const button = h("button", { type: "button", id: "rules-button", class: "btn small ghost topbar-link", title: t("The rules in short") },
    t("Rules"));
  button.addEventListener("click", () => showRules(currentView()));
  const picker = bar.querySelector(".language-picker");
  bar.insertBefore(button, picker || null);
}
