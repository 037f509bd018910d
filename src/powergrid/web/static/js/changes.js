// What changed between two views, lit up briefly where it happened: money (with the amount), a
// new house, a plant entering the market, a resource row whose count or price moved, a new bid.
import { h } from "./common.js";
import { formatNumber } from "./i18n.js";

/** The differences that matter to a player watching, from the previous view to the new one. */
export function changesBetween(before, after) {
  const out = { money: new Map(), cities: [], plants: [], resources: [], players: new Set(), bid: false };
  if (!before || !after || before.players.length !== after.players.length) return out;
  after.players.forEach((player, seat) => {
    const was = before.players[seat];
    const delta = player.money - was.money;
    if (delta) out.money.set(seat, delta);
    if (delta || player.cities.length !== was.cities.length || player.plants.join() !== was.plants.join()
        || player.resources.join() !== was.resources.join()) out.players.add(seat);
  });
  const housesBefore = before.houses || {};
  for (const [city, seats] of Object.entries(after.houses || {})) {
    if ((housesBefore[city] || []).length < seats.length) out.cities.push(city);
  }
  const marketBefore = new Set((before.current_market || []).concat(before.future_market || []));
  for (const plant of (after.current_market || []).concat(after.future_market || [])) {
    if (!marketBefore.has(plant)) out.plants.push(plant);
  }
  for (const [resource, slots] of Object.entries(after.prices || {})) {
    const was = (before.prices || {})[resource] || [];
    if (slots.filter(([, filled]) => filled).length !== was.filter(([, filled]) => filled).length) out.resources.push(resource);
  }
  const [a, b] = [before.auction || {}, after.auction || {}];
  out.bid = b.plant > 0 && (a.plant !== b.plant || a.bid !== b.bid);
  return out;
}

function flash(node, cls = "flash") {
  if (!node) return;
  node.classList.remove(cls);
  void node.offsetWidth;
  node.classList.add(cls);
}

/** Light up the changes on the page (drawn already): panels, market, board. */
export function showChanges(changes, board) {
  for (const [seat, delta] of changes.money) {
    const money = document.querySelector(`.player[data-seat="${seat}"] .stat.money`);
    if (!money) continue;
    money.querySelector(".delta")?.remove();
    // dir: the sign stays before the number in a right-to-left page
    const shown = h("span", { class: `delta ${delta > 0 ? "up" : "down"}`, "aria-hidden": "true", dir: "ltr" },
      `${delta > 0 ? "+" : "−"}${formatNumber(Math.abs(delta))}`);
    money.append(shown);
    // gone when its rise has faded (app.css); without motion (prefers-reduced-motion) it would stay
    setTimeout(() => shown.remove(), 2400);
    flash(money);
  }
  for (const seat of changes.players) flash(document.querySelector(`.player[data-seat="${seat}"]`));
  for (const city of changes.cities) board?.flashCity(city);
  for (const plant of changes.plants) flash(document.querySelector(`#plant-market .plant-card[data-plant="${plant}"]`));
  for (const resource of changes.resources) flash(document.querySelector(`.res-row[data-resource="${resource}"]`));
  if (changes.bid) {
    flash(document.querySelector("#plant-market .plant-card.selected"));
    flash(document.querySelector('.turn-order [data-auction="bidding"]'));
  }
}
