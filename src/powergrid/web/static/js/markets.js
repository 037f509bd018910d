// Plant cards, the plant market and the resource market's price track.
import { KIND_COLOURS, RESOURCES, elektro, h, kindLabel, resourceAmount, resourceIcon, resourceName, s } from "./common.js";
import { formatNumber, listOf, t, tn } from "./i18n.js";

export const STEP3_CARD = 99;

function fuelIcons(info, size) {
  if (info.kind === "ecological") return [h("span", { class: "eco-icon", title: t("needs no fuel") }, "☀")];
  if (info.kind === "fusion") return [h("span", { class: "eco-icon", title: t("needs no fuel") }, "⚛")];
  const icons = [];
  for (let i = 0; i < info.burn; i++) {
    if (info.kind === "hybrid") icons.push(resourceIcon("hybrid", size));
    else icons.push(resourceIcon(info.kind, size));
  }
  return icons;
}

function houseIcon() {
  return s("svg", { class: "house-icon", width: 12, height: 12, viewBox: "0 0 12 12", "aria-hidden": "true" },
    s("path", { d: "M1 6.2 6 1.6l5 4.6V11H1Z", fill: "currentColor" }));
}

/**
 * A power plant card. info = {kind, burn, cities}. options.small: the compact form used on
 * player boards; options.fuel: [[resource, n], ...] stored on it; options.onclick makes it a button.
 */
export function plantCard(number, info, options = {}) {
  const classes = ["plant-card"];
  if (options.small) classes.push("small");
  if (options.selected) classes.push("selected");
  if (options.disabled) classes.push("disabled");
  if (options.extra) classes.push(options.extra);
  if (number === STEP3_CARD) {
    return h("div", { class: classes.concat("step3-card").join(" "), title: t("Step {step} begins", { step: 3 }) },
      h("span", { class: "step3-text" }, t("STEP 3")));
  }
  if (!info) return h("div", { class: classes.concat("unknown").join(" ") }, h("span", { class: "pnum" }, "?"));
  const tag = options.onclick ? "button" : "div";
  const kind = kindLabel(info.kind);
  const label = info.burn
    ? tn("Plant {plant}: burns {burn} {kind}, powers {n} city", "Plant {plant}: burns {burn} {kind}, powers {n} cities", info.cities,
      { plant: number, burn: info.burn, kind })
    : tn("Plant {plant}: {kind}, powers {n} city", "Plant {plant}: {kind}, powers {n} cities", info.cities, { plant: number, kind });
  const card = h(tag, {
    class: classes.join(" "),
    style: `--kind:${KIND_COLOURS[info.kind] || "#777"}`,
    "data-plant": number,
    title: options.title || label,
    "aria-label": options.title || label,
    "aria-pressed": options.onclick ? String(Boolean(options.selected)) : undefined,
    type: options.onclick ? "button" : undefined,
    disabled: options.disabled && options.onclick ? true : undefined,
    onclick: options.onclick,
  },
    h("span", { class: "pnum" }, String(number).padStart(2, "0")),
    h("span", { class: "pfuel" }, ...fuelIcons(info, options.small ? 9 : 12)),
    h("span", { class: "pcities" }, houseIcon(), formatNumber(info.cities)),
  );
  if (options.fuel !== undefined) {
    // The fuel stored on it sits under the card, never over its numbers.
    const stored = options.fuel.flatMap(([res, n]) => Array.from({ length: n }, () => resourceIcon(res, 8)));
    const words = listOf(options.fuel.map(([res, n]) => resourceAmount(n, res))).join("");
    return h("div", { class: "plant-with-fuel", "data-plant": number },
      card, h("span", { class: `stored${stored.length ? "" : " empty"}`, title: words ? t("stores {list}", { list: words }) : t("stores nothing") }, ...stored));
  }
  return card;
}

/** The plant market: current row (buyable) and future row, or one row of six in Step 3. */
export function renderPlantMarket(container, view, options = {}) {
  const plants = view.plants || {};
  const current = view.current_market || [];
  const future = view.future_market || [];
  const mk = (n) => plantCard(n, plants[n], {
    extra: options.highlight === n ? "flash" : undefined,
    selected: options.auctionPlant === n,
  });
  const rows = [h("div", { class: "market-row" }, h("span", { class: "row-label" }, future.length ? t("Current") : t("Market")), ...current.map(mk))];
  if (future.length) rows.push(h("div", { class: "market-row future" }, h("span", { class: "row-label" }, t("Future")), ...future.map(mk)));
  const deck = h("div", { class: "deck-info" },
    h("span", { class: "deck-stack", title: t("cards left in the draw deck") }, view.deck_size === undefined ? "?" : formatNumber(view.deck_size)),
    h("span", {}, t("in the deck")),
    view.step3_in_deck ? h("span", { class: "muted" }, t("· Step 3 card at the bottom")) : null);
  container.replaceChildren(...rows, deck);
}

/** The price track of each resource: spaces by price, each slot filled or empty. */
export function renderResourceMarket(container, view, options = {}) {
  const prices = view.prices || {};
  const rows = RESOURCES.map((res) => {
    const slots = prices[res] || [];
    const spaces = [];
    for (const [price, filled] of slots) {
      let space = spaces[spaces.length - 1];
      if (!space || space.price !== price) {
        space = { price, slots: [] };
        spaces.push(space);
      }
      space.slots.push(filled);
    }
    const count = slots.filter(([, filled]) => filled).length;
    const cheapest = slots.find(([, filled]) => filled);
    return h("div", { class: `res-row res-${res}${options.highlight === res ? " flash" : ""}`, "data-resource": res },
      h("div", { class: "res-name" }, resourceIcon(res, 14), h("span", {}, resourceName(res)), h("b", { title: t("{n} in the market", { n: count }) }, formatNumber(count))),
      h("div", { class: "res-track", style: `--spaces:${spaces.length}` }, ...spaces.map((space) => h("div", {
        class: `res-space${space.slots.some(Boolean) ? "" : " empty"}`,
        title: t("{amount} each: {filled} of {slots} filled", { amount: elektro(space.price), filled: space.slots.filter(Boolean).length, slots: space.slots.length }),
      },
        h("span", { class: "price" }, formatNumber(space.price)),
        h("span", { class: "tokens" }, ...space.slots.map((filled) => filled ? resourceIcon(res, 8) : h("i", { class: "token-hole" }))),
      ))),
      h("div", { class: "res-cheapest", title: t("price of the next unit") }, cheapest ? elektro(cheapest[0]) : "—"),
    );
  });
  container.replaceChildren(...rows);
}
