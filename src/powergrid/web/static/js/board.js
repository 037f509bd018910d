// The board: an SVG map with regions, connections and cities with their three house slots.
import { PLAYER_COLOURS, playerName, s } from "./common.js";

const SCALE = 1000;
const SLOT_OFFSETS = [[-6.6, -3.9], [6.6, -3.9], [0, 7]];

export class Board {
  /**
   * mapInfo: the JSON of /api/maps/{name}.
   * options.mini: a small region picker (no labels or costs); options.onRegionClick(region)
   * options.onCityClick(name): called when a clickable city is chosen.
   */
  constructor(container, mapInfo, options = {}) {
    this.map = mapInfo;
    this.mini = Boolean(options.mini);
    this.onCityClick = options.onCityClick || (() => {});
    this.onRegionClick = options.onRegionClick || (() => {});
    this.cities = new Map(mapInfo.cities.map((city) => [city.name, city]));
    this.cityNodes = new Map();
    this.regionNodes = new Map();
    this.clickable = new Set();
    this.svg = this.draw();
    container.replaceChildren(this.svg);
  }

  point(name) {
    const city = this.cities.get(name);
    return [city.x * SCALE, city.y * SCALE];
  }

  draw() {
    const xs = this.map.cities.map((c) => c.x * SCALE);
    const ys = this.map.cities.map((c) => c.y * SCALE);
    const pad = this.mini ? 45 : 55;
    const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
    const width = Math.max(...xs) - x0 + pad;
    const height = Math.max(...ys) - y0 + pad + (this.mini ? 0 : 12);
    const svg = s("svg", {
      class: this.mini ? "board mini" : "board",
      viewBox: `${x0} ${y0} ${width} ${height}`,
      preserveAspectRatio: "xMidYMid meet",
      role: "img",
      "aria-label": `Map of ${this.map.name}`,
    });
    svg.append(s("defs", {},
      s("filter", { id: "soft", x: "-20%", y: "-20%", width: "140%", height: "140%" },
        s("feGaussianBlur", { stdDeviation: this.mini ? 6 : 9 })),
      s("filter", { id: "lift", x: "-50%", y: "-50%", width: "200%", height: "200%" },
        s("feDropShadow", { dx: 0, dy: 1.2, stdDeviation: 1.4, "flood-color": "#000", "flood-opacity": 0.35 })),
    ));
    const blobs = s("g", { class: "blobs" });
    for (const [region, names] of Object.entries(this.map.regions)) {
      const colour = this.map.region_colours[region] || "#999";
      const group = s("g", { class: "region", "data-region": region, fill: colour, stroke: colour, filter: "url(#soft)" });
      const inside = new Set(names);
      for (const link of this.map.connections) {
        if (inside.has(link.a) && inside.has(link.b)) {
          const [ax, ay] = this.point(link.a);
          const [bx, by] = this.point(link.b);
          group.append(s("line", { x1: ax, y1: ay, x2: bx, y2: by, "stroke-width": this.mini ? 60 : 64, "stroke-linecap": "round" }));
        }
      }
      for (const name of names) {
        const [x, y] = this.point(name);
        group.append(s("circle", { cx: x, cy: y, r: this.mini ? 38 : 40, stroke: "none" }));
      }
      // Fill the faces between three mutually connected cities, so a region reads as one area.
      const linked = new Set(this.map.connections.map((l) => `${l.a}|${l.b}`).concat(this.map.connections.map((l) => `${l.b}|${l.a}`)));
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          if (!linked.has(`${names[i]}|${names[j]}`)) continue;
          for (let k = j + 1; k < names.length; k++) {
            if (linked.has(`${names[i]}|${names[k]}`) && linked.has(`${names[j]}|${names[k]}`)) {
              const points = [names[i], names[j], names[k]].map((n) => this.point(n).join(",")).join(" ");
              group.append(s("polygon", { points, stroke: "none" }));
            }
          }
        }
      }
      if (this.mini) {
        group.addEventListener("click", () => this.onRegionClick(region));
        group.style.cursor = "pointer";
      }
      this.regionNodes.set(region, group);
      blobs.append(group);
    }
    svg.append(blobs);

    const links = s("g", { class: "links" });
    this.linkNodes = [];
    for (const link of this.map.connections) {
      const [ax, ay] = this.point(link.a);
      const [bx, by] = this.point(link.b);
      const group = s("g", { class: "link" }, s("line", { x1: ax, y1: ay, x2: bx, y2: by }));
      if (!this.mini) {
        const [mx, my] = [(ax + bx) / 2, (ay + by) / 2];
        const label = String(link.cost);
        const w = 7 + label.length * 6.5;
        group.append(
          s("rect", { x: mx - w / 2, y: my - 7.5, width: w, height: 15, rx: 7.5, class: "cost-bg" }),
          s("text", { x: mx, y: my + 4, class: "cost" }, label),
        );
      }
      this.linkNodes.push({ link, group });
      links.append(group);
    }
    svg.append(links);

    const cities = s("g", { class: "cities" });
    for (const city of this.map.cities) {
      const [x, y] = this.point(city.name);
      const colour = this.map.region_colours[city.region] || "#999";
      const group = s("g", { class: "city", transform: `translate(${x} ${y})`, "data-city": city.name });
      if (this.mini) {
        group.append(s("circle", { r: 9, fill: "#fff", stroke: colour, "stroke-width": 4 }));
        group.addEventListener("click", () => this.onRegionClick(city.region));
        group.style.cursor = "pointer";
      } else {
        group.append(s("circle", { class: "pick-ring", r: 23 }));
        group.append(s("circle", { class: "city-disc", r: 17.5, stroke: colour, filter: "url(#lift)" }));
        const slots = SLOT_OFFSETS.map(([dx, dy], i) => s("circle", { class: "slot", cx: dx, cy: dy, r: 5.8, "data-slot": i }));
        group.append(...slots);
        group.append(s("text", { class: "city-name", x: 0, y: 30 }, city.name));
        const badge = s("g", { class: "cost-badge", transform: "translate(0 -27)" },
          s("rect", { x: -15, y: -9, width: 30, height: 17, rx: 8.5 }),
          s("text", { x: 0, y: 4 }, ""));
        group.append(badge);
        group.append(s("title", {}, city.name));
        group.addEventListener("click", () => {
          if (this.clickable.has(city.name)) this.onCityClick(city.name);
        });
        group.addEventListener("keydown", (event) => {
          if ((event.key === "Enter" || event.key === " ") && this.clickable.has(city.name)) {
            event.preventDefault();
            this.onCityClick(city.name);
          }
        });
        this.cityNodes.set(city.name, { group, slots, badge });
      }
      cities.append(group);
    }
    svg.append(cities);
    return svg;
  }

  /** Dim the regions (and their cities and connections) that are not in play. */
  setRegions(inPlay) {
    const chosen = new Set(inPlay || []);
    for (const [region, node] of this.regionNodes) node.classList.toggle("off", !chosen.has(region));
    const cityIn = (name) => chosen.has(this.cities.get(name).region);
    for (const city of this.map.cities) {
      const node = this.svg.querySelector(`[data-city="${CSS.escape(city.name)}"]`);
      node.classList.toggle("off", !cityIn(city.name));
    }
    for (const { link, group } of this.linkNodes) group.classList.toggle("off", !(cityIn(link.a) && cityIn(link.b)));
  }

  /** Houses in slot order: houses = {city: [seat, ...]}; openSlots = slots usable in this Step. */
  setHouses(houses, openSlots) {
    for (const [name, node] of this.cityNodes) {
      const owners = houses[name] || [];
      node.slots.forEach((slot, i) => {
        const owner = owners[i];
        slot.classList.toggle("closed", owner === undefined && i >= openSlots);
        // An inline style: the stylesheet's slot colour would beat a fill attribute.
        slot.style.fill = owner === undefined ? "" : PLAYER_COLOURS[owner];
        slot.classList.toggle("house", owner !== undefined);
      });
      const title = node.group.querySelector("title");
      title.textContent = owners.length ? `${name}: ${owners.map(playerName).join(", ")}` : name;
    }
  }

  /** Build mode: costs = {city: cost} clickable; picked = ordered city names; colour of the builder. */
  setBuildChoices(costs, picked = [], colour = "#333") {
    this.clickable = new Set(Object.keys(costs || {}));
    this.svg.classList.toggle("building", this.clickable.size > 0 || picked.length > 0);
    for (const [name, node] of this.cityNodes) {
      const cost = costs ? costs[name] : undefined;
      const order = picked.indexOf(name);
      const canPick = cost !== undefined;
      node.group.classList.toggle("can-build", canPick);
      node.group.classList.toggle("picked", order >= 0);
      node.group.style.setProperty("--me", colour);
      if (canPick) {
        node.group.setAttribute("tabindex", "0");
        node.group.setAttribute("role", "button");
        node.group.setAttribute("aria-label", `Build in ${name} for ${cost} Elektro`);
        node.group.dataset.cost = cost;
      } else {
        node.group.removeAttribute("tabindex");
        node.group.removeAttribute("role");
        node.group.removeAttribute("aria-label");
        delete node.group.dataset.cost;
      }
      const text = node.badge.querySelector("text");
      if (order >= 0) text.textContent = `#${order + 1}`;
      else text.textContent = canPick ? String(cost) : "";
      const rect = node.badge.querySelector("rect");
      const width = 12 + text.textContent.length * 7;
      rect.setAttribute("x", -width / 2);
      rect.setAttribute("width", width);
    }
  }

  /** Briefly highlight a city (someone just built there). */
  flashCity(name) {
    const node = this.cityNodes.get(name);
    if (!node) return;
    node.group.classList.remove("flash");
    void node.group.getBoundingClientRect();
    node.group.classList.add("flash");
    setTimeout(() => node.group.classList.remove("flash"), 2600);
  }
}

/** Cheapest connection cost between cities, moving only through cities of the regions in play. */
export function connectionCosts(mapInfo, regions) {
  const inPlay = new Set(regions);
  const regionOf = new Map(mapInfo.cities.map((c) => [c.name, c.region]));
  const next = new Map();
  for (const link of mapInfo.connections) {
    if (!inPlay.has(regionOf.get(link.a)) || !inPlay.has(regionOf.get(link.b))) continue;
    if (!next.has(link.a)) next.set(link.a, []);
    if (!next.has(link.b)) next.set(link.b, []);
    next.get(link.a).push([link.b, link.cost]);
    next.get(link.b).push([link.a, link.cost]);
  }
  /** Distances from a set of network cities to every reachable city (Dijkstra; the map is small). */
  return function fromNetwork(network) {
    const dist = new Map();
    const open = [];
    for (const city of network) {
      dist.set(city, 0);
      open.push(city);
    }
    const done = new Set();
    while (open.length) {
      open.sort((a, b) => dist.get(a) - dist.get(b));
      const city = open.shift();
      if (done.has(city)) continue;
      done.add(city);
      for (const [other, cost] of next.get(city) || []) {
        const d = dist.get(city) + cost;
        if (!dist.has(other) || d < dist.get(other)) {
          dist.set(other, d);
          open.push(other);
        }
      }
    }
    return dist;
  };
}
