// The players' boards: colour, turn order, money, plants with their fuel, cities, power.
import { PLAYER_COLOURS, RESOURCES, h, playerName } from "./common.js";
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

export function renderPlayers(container, view, options) {
  const { seats, mySeats, currentSeat, toAct, flashSeat } = options;
  const plantInfo = view.plants || {};
  const auction = view.auction || {};
  const order = view.order || view.players.map((_, i) => i);
  const cards = order.map((seat, position) => {
    const player = view.players[seat];
    const stored = splitFuel(player.plants, player.resources, plantInfo);
    const classes = ["player"];
    if (seat === toAct) classes.push("to-act");
    if (seat === currentSeat) classes.push("viewing");
    if (seat === flashSeat) classes.push("flash");
    const inAuction = auction.plant > 0 && ((auction.in >> seat) & 1);
    const powerable = (view.powerable || [])[seat];
    return h("article", { class: classes.join(" "), style: `--pc:${PLAYER_COLOURS[seat]}`, "data-seat": seat, "aria-label": `${playerName(seat)} player board` },
      h("header", {},
        h("span", { class: "order", title: "turn order" }, ORDINALS[position]),
        h("span", { class: "pname" }, playerName(seat)),
        h("span", { class: `who${mySeats.has(seat) ? " me" : ""}` }, seatLabel(seat, seats, mySeats)),
        seat === toAct ? h("span", { class: "turn-dot", title: "to act now" }, "●") : null,
        inAuction ? h("span", { class: "tag", title: "still in the auction" }, auction.leader === seat ? "leads" : "bidding") : null,
      ),
      h("div", { class: "stats" },
        h("span", { class: "stat money", title: "money" }, h("b", {}, player.money), " E"),
        h("span", { class: "stat", title: "cities connected (houses)" }, h("b", {}, player.cities.length), " cities"),
        h("span", { class: "stat", title: "cities these plants and resources can power now" }, "powers ", h("b", {}, powerable ?? "?")),
      ),
      h("div", { class: "player-plants" },
        player.plants.length ? player.plants.map((p) => plantCard(p, plantInfo[p], { small: true, fuel: stored.get(p) }))
          : h("span", { class: "muted" }, "no plants yet")),
    );
  });
  container.replaceChildren(...cards);
}
