// Small inline-SVG line charts for the end screen (money and cities per round): each player's line
// has their marker's shape at every point (colour is not the only difference) and a legend.
import { PLAYER_COLOURS, h, playerChip, playerMarker, playerName, s } from "./common.js";
import { formatNumber, t } from "./i18n.js";

/** series: [[value per seat] per round]; draws one line per seat. */
export function lineChart(title, series, seats) {
  const width = 420;
  const height = 220;
  const left = 40;
  const right = 12;
  const top = 26;
  const bottom = 30;
  const rounds = series.length;
  const values = series.flat();
  const maxValue = Math.max(1, ...values);
  const step = niceCeiling(maxValue / 4);
  const ticks = Math.max(1, Math.ceil(maxValue / step));
  const niceMax = step * ticks;
  const x = (i) => left + (rounds <= 1 ? 0 : (i * (width - left - right)) / (rounds - 1));
  const y = (v) => top + (height - top - bottom) * (1 - v / niceMax);
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title, dir: "ltr" });
  svg.append(s("text", { x: left, y: 16, class: "chart-title" }, title));
  for (let i = 0; i <= ticks; i++) {
    const v = step * i;
    svg.append(s("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(s("text", { x: left - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, formatNumber(Math.round(v))));
  }
  const every = Math.max(1, Math.ceil(rounds / 10));
  for (let i = 0; i < rounds; i += every) {
    svg.append(s("text", { x: x(i), y: height - 10, class: "axis", "text-anchor": "middle" }, i === 0 ? t("start") : formatNumber(i)));
  }
  for (let seat = 0; seat < seats; seat++) {
    const points = series.map((row, i) => `${x(i)},${y(row[seat] ?? 0)}`).join(" ");
    svg.append(s("polyline", { points, fill: "none", stroke: PLAYER_COLOURS[seat], "stroke-width": 2.5, "stroke-linejoin": "round", "stroke-linecap": "round" },
      s("title", {}, playerName(seat))));
    // the marker shape at each point; many rounds: every few points, so the shapes stay apart
    const gap = Math.max(1, Math.ceil(rounds / 12));
    series.forEach((row, i) => {
      if (i % gap && i !== rounds - 1) return;
      svg.append(s("g", { class: "chart-point", "data-seat": seat, transform: `translate(${x(i)} ${y(row[seat] ?? 0)})` }, playerMarker(seat, 4.2)));
    });
  }
  const legend = h("figcaption", { class: "chart-legend" },
    ...Array.from({ length: seats }, (_, seat) => h("span", { class: "legend-item", "data-seat": seat }, playerChip(seat))));
  return h("figure", { class: "chart-box" }, svg, legend);
}

/** The smallest of 1, 2, 5, 10, 20, 50... at least value (whole-number axis steps). */
function niceCeiling(value) {
  if (value <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) {
    if (step * magnitude >= value) return step * magnitude;
  }
  return 10 * magnitude;
}
