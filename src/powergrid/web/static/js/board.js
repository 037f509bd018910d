// The board: an SVG map with regions, connections and cities with their three house slots.
// Cities are spread apart where the printed map is crowded, and every city name and connection
// cost is placed where it overlaps no city and no other label; zoom and pan by wheel, pinch,
// drag, the buttons or the keyboard.
import { h, mapName, playerMarker, playerName, s } from "./common.js";
import { elektro, listOf, t } from "./i18n.js";

const SCALE = 1000;
const DISC = 22;            // city disc radius
const SLOT_R = 9;           // house radius
const SLOT_OFFSETS = [[-10, -5.6], [10, -5.6], [0, 10.4]];
const MIN_APART = 80;       // centres of two cities at least this far apart (user units)
const NAME_FONT = "650 11.5px Inter, 'Segoe UI', system-ui, sans-serif";
const COST_FONT = "700 10.5px Inter, 'Segoe UI', system-ui, sans-serif";
const MAX_ZOOM = 6;
const BADGE_W = 34;         // a city's build-cost badge: wide enough for three characters
const BADGE_H = 17;

let measureCanvas = null;
function textWidth(text, font) {
  measureCanvas = measureCanvas || document.createElement("canvas");
  const context = measureCanvas.getContext("2d");
  context.font = font;
  return context.measureText(text).width;
}

/** Push apart cities closer than MIN_APART (the printed Ruhr and the US north-east are crowded). */
export function spreadCities(cities, scale = SCALE, apart = MIN_APART) {
  const pos = new Map(cities.map((c) => [c.name, [c.x * scale, c.y * scale]]));
  const names = cities.map((c) => c.name);
  for (let round = 0; round < 80; round++) {
    let moved = false;
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const a = pos.get(names[i]);
        const b = pos.get(names[j]);
        let dx = b[0] - a[0];
        let dy = b[1] - a[1];
        let d = Math.hypot(dx, dy);
        if (d >= apart) continue;
        if (d < 1e-6) { dx = 1; dy = 0; d = 1; }
        const push = (apart - d) / 2 + 0.05;
        a[0] -= (dx / d) * push; a[1] -= (dy / d) * push;
        b[0] += (dx / d) * push; b[1] += (dy / d) * push;
        moved = true;
      }
    }
    if (!moved) break;
  }
  return pos;
}

function boxesOverlap(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

function boxHitsCircle(box, cx, cy, r) {
  const nx = Math.max(box.x, Math.min(cx, box.x + box.w));
  const ny = Math.max(box.y, Math.min(cy, box.y + box.h));
  return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r;
}

function overlapArea(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/**
 * Where each connection cost and city name goes: greedily, the first candidate spot that covers
 * no city disc and no label placed before (the most crowded first). Returns
 * {costs: [{x, y, w, h}] per connection, names: Map(name -> {x, y, w, h, side})}.
 */
export function placeLabels(map, pos) {
  const discs = [...pos.values()];
  const hitsDisc = (box) => discs.some(([x, y]) => boxHitsCircle(box, x, y, DISC + 1.5));
  const placed = [];
  const free = (box) => !hitsDisc(box) && !placed.some((other) => other !== box && boxesOverlap(box, other));
  const crowding = (box) => discs.reduce((sum, [x, y]) => sum + (boxHitsCircle(box, x, y, DISC + 1.5) ? 400 : 0), 0)
    + placed.reduce((sum, other) => sum + overlapArea(box, other), 0);
  const pick = (candidates) => candidates.find(free) || candidates.reduce((best, box) => (crowding(box) < crowding(best) ? box : best));
  const labels = [];  // {candidates, box, set(box)}: kept to move a label again when it still overlaps

  // connection costs, the shortest connections first (they have the least room)
  const costs = new Array(map.connections.length);
  const order = map.connections.map((link, i) => i).sort((i, j) => {
    const len = (k) => { const l = map.connections[k]; const [a, b] = [pos.get(l.a), pos.get(l.b)]; return Math.hypot(b[0] - a[0], b[1] - a[1]); };
    return len(i) - len(j);
  });
  for (const i of order) {
    const link = map.connections[i];
    const [ax, ay] = pos.get(link.a);
    const [bx, by] = pos.get(link.b);
    const w = Math.ceil(textWidth(String(link.cost), COST_FONT)) + 9;
    const hgt = 14;
    const length = Math.hypot(bx - ax, by - ay) || 1;
    const [px, py] = [-(by - ay) / length, (bx - ax) / length];
    const candidates = [];
    for (const off of [0, 8, -8, 14, -14, 20, -20]) {
      for (const t of [0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73]) {
        const cx = ax + (bx - ax) * t + px * off;
        const cy = ay + (by - ay) * t + py * off;
        candidates.push({ x: cx - w / 2, y: cy - hgt / 2, w, h: hgt });
      }
    }
    const box = pick(candidates);
    placed.push(box);
    costs[i] = box;
    labels.push({ candidates, get: () => costs[i], set: (b) => { costs[i] = b; } });
  }

  // city names, the most crowded cities first
  const names = new Map();
  const neighbours = (name) => discs.filter(([x, y]) => Math.hypot(x - pos.get(name)[0], y - pos.get(name)[1]) < 130).length;
  const cities = map.cities.map((c) => c.name).sort((a, b) => neighbours(b) - neighbours(a));
  for (const name of cities) {
    const [x, y] = pos.get(name);
    const w = Math.ceil(textWidth(name, NAME_FONT)) + 6;
    const hgt = 15.5;  // the text box is up to 14.5 units tall when drawn small
    const gap = DISC + 2;
    const spots = [
      ["below", 0, gap + hgt / 2], ["above", 0, -gap - hgt / 2],
      ["right", gap + w / 2, 0], ["left", -gap - w / 2, 0],
      ["below", w / 2 - 6, gap + hgt / 2 - 4], ["below", -w / 2 + 6, gap + hgt / 2 - 4],
      ["above", w / 2 - 6, -gap - hgt / 2 + 4], ["above", -w / 2 + 6, -gap - hgt / 2 + 4],
      ["below", 0, gap + hgt / 2 + 10], ["above", 0, -gap - hgt / 2 - 10],
      ["right", gap + w / 2, 12], ["left", -gap - w / 2, 12], ["right", gap + w / 2, -12], ["left", -gap - w / 2, -12],
    ];
    // then a ring of spots further out, all round the city
    for (const extra of [4, 12, 22]) {
      for (let angle = 0; angle < 360; angle += 20) {
        const [c, sn] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
        spots.push([sn > 0.3 ? "below" : sn < -0.3 ? "above" : c > 0 ? "right" : "left",
          c * (gap + extra + (w / 2) * Math.abs(c)), sn * (gap + extra + (hgt / 2) * Math.abs(sn))]);
      }
    }
    const candidates = spots.map(([side, dx, dy]) => ({ x: x + dx - w / 2, y: y + dy - hgt / 2, w, h: hgt, side }));
    const box = pick(candidates);
    placed.push(box);
    names.set(name, box);
    labels.push({ candidates, get: () => names.get(name), set: (b) => names.set(name, b) });
  }
  // repair: a label that still overlaps moves to a free spot now that all the others are placed
  for (let pass = 0; pass < 4; pass++) {
    let moved = false;
    for (const label of labels) {
      const box = label.get();
      if (free(box)) continue;
      placed.splice(placed.indexOf(box), 1);
      const better = label.candidates.find(free);
      const next = better || box;
      placed.push(next);
      label.set(next);
      moved = moved || Boolean(better);
    }
    if (!moved) break;
  }
  // two labels that still collide: look for free spots for both at once
  for (const a of labels) {
    const boxA = a.get();
    if (free(boxA)) continue;
    const b = labels.find((other) => other !== a && boxesOverlap(other.get(), boxA));
    if (!b) continue;
    const boxB = b.get();
    placed.splice(placed.indexOf(boxA), 1);
    placed.splice(placed.indexOf(boxB), 1);
    let found = null;
    for (const candA of a.candidates) {
      if (!free(candA)) continue;
      placed.push(candA);
      const candB = b.candidates.find(free);
      placed.pop();
      if (candB) { found = [candA, candB]; break; }
    }
    const [nextA, nextB] = found || [boxA, boxB];
    placed.push(nextA, nextB);
    a.set(nextA);
    b.set(nextB);
  }
  return { costs, names, badges: placeBadges(map, pos, placed, discs) };
}

/**
 * Where each city's build-cost badge goes (shown only while building): beside its disc, covering
 * no city name, no disc and no other badge, and a connection cost only where nothing else is free.
 * Returns Map(name -> {dx, dy}), the badge's centre from the city's centre.
 */
function placeBadges(map, pos, labels, discs) {
  const badges = new Map();
  const boxes = [];
  const hgt = BADGE_H;
  const w = BADGE_W;
  const offsets = [[0, -(DISC + 10)], [0, DISC + 10]];
  for (const extra of [4, 10, 17]) {
    for (let angle = 0; angle < 360; angle += 15) {
      const [c, sn] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
      offsets.push([c * (DISC + extra + (w / 2) * Math.abs(c)), sn * (DISC + extra + (hgt / 2) * Math.abs(sn))]);
    }
  }
  const nameBoxes = labels.filter((box) => box.side !== undefined);
  const costBoxes = labels.filter((box) => box.side === undefined);
  const crowding = (box) => {
    let score = 0;
    for (const name of nameBoxes) score += 1000 * overlapArea(box, name);
    for (const [x, y] of discs) if (boxHitsCircle(box, x, y, DISC + 1.5)) score += 400000;
    for (const other of boxes) score += 50 * overlapArea(box, other);
    for (const cost of costBoxes) score += overlapArea(box, cost);
    return score;
  };
  // the most crowded cities first: they have the fewest free spots
  const neighbours = (name) => discs.filter(([x, y]) => Math.hypot(x - pos.get(name)[0], y - pos.get(name)[1]) < 130).length;
  const cities = map.cities.map((c) => c.name).sort((a, b) => neighbours(b) - neighbours(a));
  for (const name of cities) {
    const [x, y] = pos.get(name);
    let best = null;
    let bestScore = Infinity;
    for (const [dx, dy] of offsets) {
      const box = { x: x + dx - w / 2, y: y + dy - hgt / 2, w, h: hgt };
      const score = crowding(box);
      if (score < bestScore) { best = { box, dx, dy }; bestScore = score; }
      if (score === 0) break;
    }
    boxes.push(best.box);
    badges.set(name, { dx: best.dx, dy: best.dy });
  }
  return badges;
}

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
    this.pos = this.mini ? new Map(mapInfo.cities.map((c) => [c.name, [c.x * SCALE, c.y * SCALE]])) : spreadCities(mapInfo.cities);
    this.cityNodes = new Map();
    this.regionNodes = new Map();
    this.clickable = new Set();
    this.svg = this.draw();
    if (this.mini) container.replaceChildren(this.svg);
    else {
      // the buttons sit in a strip of their own: over the map they would hide cities from taps
      container.replaceChildren(this.zoomControls(), this.svg);
      container.style.setProperty("--map-aspect", `${this.base.w.toFixed(0)} / ${this.base.h.toFixed(0)}`);
      this.enableZoom();
      this.resetView();
      if (window.ResizeObserver) new ResizeObserver(() => this.refit()).observe(this.svg);
    }
  }

  point(name) {
    return this.pos.get(name);
  }

  draw() {
    const xs = [...this.pos.values()].map((p) => p[0]);
    const ys = [...this.pos.values()].map((p) => p[1]);
    const pad = this.mini ? 45 : 62;
    const [x0, y0] = [Math.min(...xs) - pad, Math.min(...ys) - pad];
    const width = Math.max(...xs) - x0 + pad;
    const height = Math.max(...ys) - y0 + pad;
    this.base = { x: x0, y: y0, w: width, h: height };
    this.vb = { ...this.base };
    const svg = s("svg", {
      class: this.mini ? "board mini" : "board",
      viewBox: `${x0} ${y0} ${width} ${height}`,
      preserveAspectRatio: "xMidYMid meet",
      role: this.mini ? "img" : "group",
      "aria-label": this.mini ? t("Map of {map}", { map: mapName(this.map.name) })
        : t("Map of {map}: + and − zoom, arrow keys move, 0 shows the regions in play", { map: mapName(this.map.name) }),
      // the map is drawn left to right in every language (never mirrored)
      dir: "ltr",
      tabindex: this.mini ? undefined : "0",
    });
    svg.append(s("defs", {},
      s("filter", { id: "soft", x: "-20%", y: "-20%", width: "140%", height: "140%" },
        s("feGaussianBlur", { stdDeviation: this.mini ? 6 : 9 })),
      s("filter", { id: "lift", x: "-50%", y: "-50%", width: "200%", height: "200%" },
        s("feDropShadow", { dx: 0, dy: 1.2, stdDeviation: 1.4, "flood-color": "#000", "flood-opacity": 0.35 })),
    ));
    const blobs = s("g", { class: "blobs" });
    const linked = new Set(this.map.connections.map((l) => `${l.a}|${l.b}`).concat(this.map.connections.map((l) => `${l.b}|${l.a}`)));
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
        group.append(s("circle", { cx: x, cy: y, r: this.mini ? 38 : 42, stroke: "none" }));
      }
      // Fill the faces between three mutually connected cities, so a region reads as one area.
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

    const layout = this.mini ? null : placeLabels(this.map, this.pos);
    this.layout = layout;
    const links = s("g", { class: "links" });
    const costs = s("g", { class: "costs" });
    this.linkNodes = [];
    this.map.connections.forEach((link, i) => {
      const [ax, ay] = this.point(link.a);
      const [bx, by] = this.point(link.b);
      const group = s("g", { class: "link" }, s("line", { x1: ax, y1: ay, x2: bx, y2: by }));
      let label = null;
      if (!this.mini) {
        const box = layout.costs[i];
        label = s("g", { class: "cost-label", "data-a": link.a, "data-b": link.b },
          s("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: box.h / 2, class: "cost-bg" }),
          s("text", { x: box.x + box.w / 2, y: box.y + box.h / 2 + 3.7, class: "cost" }, String(link.cost)));
        costs.append(label);
      }
      this.linkNodes.push({ link, group, label });
      links.append(group);
    });
    svg.append(links);

    const cities = s("g", { class: "cities" });
    const names = s("g", { class: "names" });
    for (const city of this.map.cities) {
      const [x, y] = this.point(city.name);
      const colour = this.map.region_colours[city.region] || "#999";
      const group = s("g", { class: "city", transform: `translate(${x} ${y})`, "data-city": city.name });
      if (this.mini) {
        group.append(s("circle", { r: 9, fill: "#fff", stroke: colour, "stroke-width": 4 }));
        group.addEventListener("click", () => this.onRegionClick(city.region));
        group.style.cursor = "pointer";
      } else {
        group.append(s("circle", { class: "pick-ring", r: DISC + 5 }));
        group.append(s("circle", { class: "city-disc", r: DISC, stroke: colour, filter: "url(#lift)" }));
        const slots = SLOT_OFFSETS.map(([dx, dy], i) => s("g", { class: "slot-holder", transform: `translate(${dx} ${dy})`, "data-slot": i },
          s("circle", { class: "slot", r: SLOT_R * 0.78 })));
        group.append(...slots);
        const box = layout.names.get(city.name);
        const label = s("text", { class: "city-name", x: box.x + box.w / 2, y: box.y + box.h / 2 + 4, "data-city": city.name, "data-side": box.side }, city.name);
        names.append(label);
        const spot = layout.badges.get(city.name);
        const badge = s("g", { class: "cost-badge", transform: `translate(${spot.dx.toFixed(1)} ${spot.dy.toFixed(1)})` },
          s("rect", { x: -BADGE_W / 2, y: -BADGE_H / 2, width: BADGE_W, height: BADGE_H, rx: BADGE_H / 2 }),
          s("text", { x: 0, y: 4.5 }, ""));
        group.append(badge);
        group.append(s("title", {}, city.name));
        group.addEventListener("click", () => {
          if (this.clickable.has(city.name)) this.onCityClick(city.name);
        });
        group.addEventListener("keydown", (event) => {
          if ((event.key === "Enter" || event.key === " ") && this.clickable.has(city.name)) {
            event.preventDefault();
            event.stopPropagation();
            this.onCityClick(city.name);
          }
        });
        this.cityNodes.set(city.name, { group, slots, badge, label });
      }
      cities.append(group);
    }
    svg.append(cities);
    if (!this.mini) svg.append(costs, names);
    return svg;
  }

  // --- zoom and pan ------------------------------------------------------------------------------
  zoomControls() {
    const button = (text, label, onclick, extra = "") => h("button", { type: "button", class: `zoom-btn ${extra}`, "aria-label": label, title: label, onclick }, text);
    return h("div", { class: "zoom-controls" },
      button("+", t("Zoom in"), () => this.zoomBy(1.5), "zoom-in"),
      button("−", t("Zoom out"), () => this.zoomBy(1 / 1.5), "zoom-out"),
      button("⤢", t("Show the regions in play"), () => this.resetView(), "zoom-fit"));
  }

  /** Width over height of the map on screen (the whole map's when it is not laid out yet). */
  aspect() {
    const box = this.svg.getBoundingClientRect();
    return box.width > 4 && box.height > 4 ? box.width / box.height : this.base.w / this.base.h;
  }

  /** A box grown to the map's shape on screen around its centre, so the view fills the map's space. */
  fitted(box) {
    const ratio = this.aspect();
    let { x, y, w, h: hgt } = box;
    if (w / hgt < ratio) { const grow = hgt * ratio - w; x -= grow / 2; w += grow; } else { const grow = w / ratio - hgt; y -= grow / 2; hgt += grow; }
    return { x, y, w, h: hgt };
  }

  /** The view of the whole map (the most one can zoom out). */
  whole() {
    return this.fitted(this.base);
  }

  /** The view the map opens at and returns to: the regions in play, as large as the screen allows. */
  homeView() {
    const view = this.fitted(this.homeBox || this.base);
    const whole = this.whole();
    if (view.w > whole.w) return whole;
    return this.clamped(view);
  }

  get zoom() {
    return this.whole().w / this.vb.w;
  }

  applyView() {
    const { x, y, w, h: height } = this.vb;
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${height}`);
    this.svg.classList.toggle("zoomed", this.vb.w < this.whole().w * 0.99);
    this.svg.dataset.zoom = this.zoom.toFixed(2);
    this.svg.dataset.home = String(this.atHome);
  }

  /** The regions in play: the view the map opens at and returns to (the whole map if none). */
  setHome(names) {
    // each city in play with its name, its build-cost badge and a margin around them
    const boxes = names.flatMap((name) => {
      const [x, y] = this.point(name);
      const margin = DISC + 14;
      const out = [{ x: x - margin, y: y - margin, w: 2 * margin, h: 2 * margin }, this.layout.names.get(name)];
      const badge = this.layout.badges.get(name);
      out.push({ x: x + badge.dx - BADGE_W / 2 - 6, y: y + badge.dy - BADGE_H / 2 - 6, w: BADGE_W + 12, h: BADGE_H + 12 });
      return out;
    });
    if (!boxes.length) this.homeBox = null;
    else {
      const x0 = Math.min(...boxes.map((b) => b.x)) - 6;
      const y0 = Math.min(...boxes.map((b) => b.y)) - 6;
      const x1 = Math.max(...boxes.map((b) => b.x + b.w)) + 6;
      const y1 = Math.max(...boxes.map((b) => b.y + b.h)) + 6;
      this.homeBox = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
    }
    // where the map's height follows its width (phones), it takes the shape of the regions in play
    const shape = this.homeBox || this.base;
    const ratio = Math.min(1.6, Math.max(0.62, shape.w / shape.h));
    this.svg.parentNode?.style.setProperty("--map-aspect", `${(ratio * 1000).toFixed(0)} / 1000`);
    if (this.atHome !== false) this.resetView();
  }

  /** Zoom by a factor around a point of the map (user units; the centre of the view if left out). */
  zoomBy(factor, cx, cy) {
    const vb = this.vb;
    const whole = this.whole();
    const w = Math.min(whole.w, Math.max(whole.w / MAX_ZOOM, vb.w / factor));
    const height = w * (vb.h / vb.w);
    const px = cx === undefined ? vb.x + vb.w / 2 : cx;
    const py = cy === undefined ? vb.y + vb.h / 2 : cy;
    this.vb = this.clamped({ x: px - (px - vb.x) * (w / vb.w), y: py - (py - vb.y) * (height / vb.h), w, h: height });
    this.atHome = false;
    this.applyView();
  }

  panBy(dx, dy) {
    this.vb = this.clamped({ ...this.vb, x: this.vb.x + dx, y: this.vb.y + dy });
    this.atHome = false;
    this.applyView();
  }

  resetView() {
    this.vb = this.homeView();
    this.atHome = true;
    this.applyView();
  }

  /** The map on screen changed shape (a window resized, a tab shown): keep what was in view. */
  refit() {
    if (this.atHome !== false) {
      this.resetView();
      return;
    }
    const { x, y, w, h: hgt } = this.vb;
    const ratio = this.aspect();
    const height = w / ratio;
    this.vb = this.clamped({ x, y: y + (hgt - height) / 2, w, h: height });
    this.applyView();
  }

  /** A view kept inside the whole map's view. */
  clamped(view) {
    const whole = this.whole();
    const x = Math.min(Math.max(view.x, whole.x), whole.x + whole.w - view.w);
    const y = Math.min(Math.max(view.y, whole.y), whole.y + whole.h - view.h);
    return { ...view, x, y };
  }

  /** Client (screen) coordinates -> map units. */
  toMap(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return [this.vb.x + this.vb.w / 2, this.vb.y + this.vb.h / 2];
    const point = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    return [point.x, point.y];
  }

  enableZoom() {
    const svg = this.svg;
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const [x, y] = this.toMap(event.clientX, event.clientY);
      this.zoomBy(Math.exp(-event.deltaY * 0.0018), x, y);
    }, { passive: false });
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    this.dragged = false;
    svg.addEventListener("pointerdown", (event) => {
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pointers.size === 1) {
        drag = { x: event.clientX, y: event.clientY, moved: false };
        this.dragged = false;
      } else if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
        drag = null;
      }
    });
    svg.addEventListener("pointermove", (event) => {
      if (!pointers.has(event.pointerId)) return;
      const before = pointers.get(event.pointerId);
      pointers.set(event.pointerId, [event.clientX, event.clientY]);
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        const [mx, my] = this.toMap((a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        if (pinch.d > 0) this.zoomBy(d / pinch.d, mx, my);
        pinch.d = d;
        this.dragged = true;
        return;
      }
      if (!drag) return;
      if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
      if (!drag.moved) {
        drag.moved = true;
        this.dragged = true;
        if (this.zoom > 1.01) svg.setPointerCapture(event.pointerId);
      }
      const ctm = svg.getScreenCTM();
      const scale = ctm ? ctm.a : 1;
      this.panBy(-(event.clientX - before[0]) / scale, -(event.clientY - before[1]) / scale);
    });
    const end = (event) => {
      pointers.delete(event.pointerId);
      if (pointers.size < 2) pinch = null;
      if (!pointers.size) drag = null;
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // a drag or a pinch is not a click on the city under the finger
    svg.addEventListener("click", (event) => {
      if (this.dragged) {
        event.stopPropagation();
        event.preventDefault();
        this.dragged = false;
      }
    }, true);
    svg.addEventListener("keydown", (event) => {
      if (event.target !== svg) return;
      const step = this.vb.w / 8;
      const keys = {
        "+": () => this.zoomBy(1.5), "=": () => this.zoomBy(1.5), "-": () => this.zoomBy(1 / 1.5), "0": () => this.resetView(),
        ArrowLeft: () => this.panBy(-step, 0), ArrowRight: () => this.panBy(step, 0),
        ArrowUp: () => this.panBy(0, -step), ArrowDown: () => this.panBy(0, step),
      };
      if (keys[event.key]) {
        event.preventDefault();
        keys[event.key]();
      }
    });
  }

  /** Show a city in the middle of the view (zoomed in if the map is shown whole). */
  focusCity(name) {
    const [x, y] = this.point(name);
    if (this.zoom < 1.5) this.zoomBy(2, x, y);
    this.vb = this.clamped({ ...this.vb, x: x - this.vb.w / 2, y: y - this.vb.h / 2 });
    this.atHome = false;
    this.applyView();
  }

  /** Dim the regions (and their cities and connections) that are not in play. */
  setRegions(inPlay) {
    const chosen = new Set(inPlay || []);
    for (const [region, node] of this.regionNodes) node.classList.toggle("off", !chosen.has(region));
    const cityIn = (name) => chosen.has(this.cities.get(name).region);
    for (const city of this.map.cities) {
      const node = this.svg.querySelector(`.city[data-city="${CSS.escape(city.name)}"]`);
      node.classList.toggle("off", !cityIn(city.name));
      const label = this.cityNodes.get(city.name)?.label;
      if (label) label.classList.toggle("off", !cityIn(city.name));
    }
    for (const { link, group, label } of this.linkNodes) {
      const off = !(cityIn(link.a) && cityIn(link.b));
      group.classList.toggle("off", off);
      if (label) label.classList.toggle("off", off);
    }
    if (!this.mini) this.setHome(this.map.cities.filter((c) => cityIn(c.name)).map((c) => c.name));
  }

  /** Houses in slot order: houses = {city: [seat, ...]}; openSlots = slots usable in this Step. */
  setHouses(houses, openSlots) {
    for (const [name, node] of this.cityNodes) {
      const owners = houses[name] || [];
      node.slots.forEach((holder, i) => {
        const owner = owners[i];
        const key = owner === undefined ? (i >= openSlots ? "closed" : "open") : `p${owner}`;
        if (holder.dataset.key === key) return;
        holder.dataset.key = key;
        if (owner === undefined) {
          holder.replaceChildren(s("circle", { class: `slot${i >= openSlots ? " closed" : ""}`, r: SLOT_R * 0.78 }));
          holder.removeAttribute("data-owner");
        } else {
          holder.replaceChildren(s("g", { class: "house" }, playerMarker(owner, SLOT_R)));
          holder.dataset.owner = owner;
        }
      });
      const title = node.group.querySelector("title");
      title.textContent = owners.length ? t("{city}: {players}", { city: name, players: listOf(owners.map(playerName)).join("") }) : name;
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
        node.group.setAttribute("aria-label", t("Build in {city} for {amount}", { city: name, amount: elektro(cost) }));
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
      const width = Math.min(BADGE_W, 12 + text.textContent.length * 7);
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
