// The players' boards: colour, turn order, money, plants with their fuel, cities, power.
import { PLAYER_COLOURS, RESOURCES, h, markerIcon, playerName } from "./common.js";
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
  if (mySeats.has(seat)) return "you";
  if (info && info.kind === "bot") return `${info.bot || "bot"} bot`;
  return "human";
}

const ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th"];

/** This round's auction for one seat in words (null outside the auction). */
export function auctionTag(status) {
  if (!status) return null;
  switch (status.status) {
    case "bought": return { text: `bought ${status.plant} for ${status.price}`, kind: "bought", title: `bought plant ${status.plant} for ${status.price} Elektro this round` };
    case "passed": return { text: "passed", kind: "passed", title: "passed: buys no plant this round" };
    case "bidding": return { text: status.leads ? "leads" : "bidding", kind: "bidding", title: status.leads ? "has the highest bid" : "still in this auction" };
    default: return { text: "to go", kind: "to-go", title: "has not bought a plant or passed yet this round" };
  }
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
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
      tag = { text: auction.leader === seat ? "leads" : "bidding", kind: "bidding", title: "still in the auction" };
    }
    const powerable = (view.powerable || [])[seat];
    const cities = player.cities.length;
    return h("article", { class: classes.join(" "), style: `--pc:${PLAYER_COLOURS[seat]}`, "data-seat": seat, "aria-label": `${playerName(seat)} player board` },
      h("header", {},
        h("span", { class: "order", title: "turn order" }, ORDINALS[position]),
        markerIcon(seat, 15),
        h("span", { class: "pname" }, playerName(seat)),
        seatName(seat) ? h("span", { class: "given-name", title: seatName(seat) }, seatName(seat)) : null,
        h("span", { class: `who${mySeats.has(seat) ? " me" : ""}` }, seatLabel(seat, seats, mySeats)),
        seat === toAct ? h("span", { class: "turn-dot", title: "to act now" }, "●") : null,
        tag ? h("span", { class: `tag auction-${tag.kind}`, title: tag.title, "data-auction": tag.kind }, tag.text) : null,
      ),
      h("div", { class: "stats" },
        h("span", { class: "stat money", title: "money" }, h("b", {}, player.money), " E"),
        h("span", { class: "stat cities", title: "cities connected (houses)" }, h("b", {}, cities), cities === 1 ? " city" : " cities"),
        h("span", { class: "stat", title: "cities these plants and resources can power now" }, "powers ", h("b", {}, powerable ?? "?")),
      ),
      h("div", { class: "player-plants" },
        player.plants.length ? player.plants.map((p) => plantCard(p, plantInfo[p], { small: true, fuel: stored.get(p) }))
          : h("span", { class: "muted" }, "no plants yet")),
    );
  });
  container.replaceChildren(...cards);
}

export { plural };
