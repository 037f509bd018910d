// The players' boards: colour, turn order, money, plants with their fuel, cities, power.
import { PLAYER_COLOURS, RESOURCES, botName, h, markerIcon, playerName } from "./common.js";
import { elektro, formatNumber, pt, t, tn, withNodes } from "./i18n.js";
import { seatName } from "./names.js";
import { plantCard } from "./markets.js";

/**
 * Share a player's resource totals out over their plants for display (which plant holds what
 * is free in the rules; only the totals matter): own-kind plants first, then hybrids.
 */
export function splitFuel(plants, resources, plantInfo) {
  const left = Object.fromEntries(RESOURCES.map((res, i) => [res, resources[i] || 0]));
  const stored = new Map(plants.map((p) => [p, []]));
  const put = (plant, res, room) => {
    const n = Math.min(room, left[res]);
    if (n > 0) {
      stored.get(plant).push([res, n]);
      left[res] -= n;
    }
    return n;
  };
  for (const p of plants) {
    const info = plantInfo[p];
    if (info && RESOURCES.includes(info.kind)) put(p, info.kind, 2 * info.burn);
  }
  for (const p of plants) {
    const info = plantInfo[p];
    if (info && info.kind === "hybrid") {
      let room = 2 * info.burn;
      room -= put(p, "coal", room);
      put(p, "oil", room);
    }
  }
  return stored;
}

export function seatLabel(seat, seats, mySeats) {
  const info = seats && seats[seat];
  if (mySeats.has(seat)) return t("you");
  if (info && info.kind === "bot") return info.bot ? t("{bot} bot", { bot: botName(info.bot) }) : t("bot");
  return t("human");
}

/** A place in the turn order: 1st, 2nd... */
function ordinal(place) {
  return [t("1st"), t("2nd"), t("3rd"), t("4th"), t("5th"), t("6th")][place] || formatNumber(place + 1);
}

/** This round's auction for one seat in words (null outside the auction). */
export function auctionTag(status) {
  if (!status) return null;
  switch (status.status) {
    case "bought": return { text: t("bought {plant} for {price}", { plant: status.plant, price: elektro(status.price) }), kind: "bought",
      title: t("bought plant {plant} for {price} this round", { plant: status.plant, price: elektro(status.price) }) };
    case "passed": return { text: pt("auction", "passed"), kind: "passed", title: t("passed: buys no plant this round") };
    case "bidding": return { text: status.leads ? t("leads") : t("bidding"), kind: "bidding", title: status.leads ? t("has the highest bid") : t("still in this auction") };
    default: return { text: t("to go"), kind: "to-go", title: t("has not bought a plant or passed yet this round") };
  }
}

export function renderPlayers(container, view, options) {
  const { seats, mySeats, currentSeat, toAct, flashSeat } = options;
  const plantInfo = view.plants || {};
  const auction = view.auction || {};
  const statuses = view.auction_status || null;
  const order = view.order || view.players.map((_, i) => i);
  const cards = order.map((seat, position) => {
    const player = view.players[seat];
    const stored = splitFuel(player.plants, player.resources, plantInfo);
    const classes = ["player"];
    if (seat === toAct) classes.push("to-act");
    if (seat === currentSeat) classes.push("viewing");
    if (seat === flashSeat) classes.push("flash");
    let tag = statuses ? auctionTag(statuses[seat]) : null;
    if (!statuses && auction.plant > 0 && ((auction.in >> seat) & 1)) {
      tag = { text: auction.leader === seat ? t("leads") : t("bidding"), kind: "bidding", title: t("still in this auction") };
    }
    const powerable = (view.powerable || [])[seat];
    const cities = player.cities.length;
    return h("article", { class: classes.join(" "), style: `--pc:${PLAYER_COLOURS[seat]}`, "data-seat": seat, "aria-label": t("{player} player board", { player: playerName(seat) }) },
      h("header", {},
        h("span", { class: "order", title: t("turn order") }, ordinal(position)),
        markerIcon(seat, 15),
        h("span", { class: "pname" }, playerName(seat)),
        seatName(seat) ? h("span", { class: "given-name", title: seatName(seat) }, seatName(seat)) : null,
        h("span", { class: `who${mySeats.has(seat) ? " me" : ""}` }, seatLabel(seat, seats, mySeats)),
        seat === toAct ? h("span", { class: "turn-dot", title: t("to act now") }, "●") : null,
        tag ? h("span", { class: `tag auction-${tag.kind}`, title: tag.title, "data-auction": tag.kind }, tag.text) : null,
      ),
      h("div", { class: "stats" },
        h("span", { class: "stat money", title: t("money") }, ...withNodes(elektro("{amount}"), { amount: h("b", {}, player.money) })),
        h("span", { class: "stat cities", title: t("cities connected (houses)") },
          ...withNodes(tn("{n} city", "{n} cities", cities, { n: "{n}" }), { n: h("b", {}, cities) })),
        h("span", { class: "stat powerable", title: t("how many of their cities their plants could power now, with the fuel they hold") },
          ...withNodes(tn("fuel for {n} city", "fuel for {n} cities", powerable ?? 0, { n: "{n}" }), { n: h("b", {}, powerable ?? "?") })),
      ),
      h("div", { class: "player-plants" },
        player.plants.length ? player.plants.map((p) => plantCard(p, plantInfo[p], { small: true, fuel: stored.get(p) }))
          : h("span", { class: "muted" }, t("no plants yet"))),
    );
  });
  container.replaceChildren(...cards);
}

