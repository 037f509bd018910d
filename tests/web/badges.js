// Evaluated in the page: every city's build-cost badge shown (as in build mode) and every badge
// that covers a city name, a city disc or another badge, in map units, allowing `slack` units.
(slack) => {
  const svg = document.querySelector("#board svg.board");
  const shrink = (b) => ({ x: b.x + slack, y: b.y + slack, w: b.w - 2 * slack, h: b.h - 2 * slack });
  const names = [...svg.querySelectorAll(".city-name")].map((node) => {
    const b = node.getBBox();
    return { id: node.textContent, ...shrink({ x: b.x, y: b.y, w: b.width, h: b.height }) };
  });
  const discs = [];
  const badges = [];
  for (const g of svg.querySelectorAll(".city")) {
    const m = g.transform.baseVal.consolidate().matrix;
    discs.push({ id: g.dataset.city, x: m.e, y: m.f, r: Number(g.querySelector(".city-disc").getAttribute("r")) });
    const badge = g.querySelector(".cost-badge");
    const at = badge.transform.baseVal.consolidate().matrix;
    const rect = badge.querySelector("rect");
    const [x, y] = [Number(rect.getAttribute("x")), Number(rect.getAttribute("y"))];
    badges.push({ id: g.dataset.city, ...shrink({ x: m.e + at.e + x, y: m.f + at.f + y,
      w: Number(rect.getAttribute("width")), h: Number(rect.getAttribute("height")) }) });
  }
  const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const overlaps = [];
  badges.forEach((a, i) => {
    for (const name of names) if (meets(a, name)) overlaps.push(`badge ${a.id} / name ${name.id}`);
    for (const b of badges.slice(i + 1)) if (meets(a, b)) overlaps.push(`badge ${a.id} / badge ${b.id}`);
    for (const d of discs) {
      const nx = Math.max(a.x, Math.min(d.x, a.x + a.w));
      const ny = Math.max(a.y, Math.min(d.y, a.y + a.h));
      if ((nx - d.x) ** 2 + (ny - d.y) ** 2 < (d.r - slack) ** 2) overlaps.push(`badge ${a.id} / city ${d.id}`);
    }
  });
  return { overlaps, badges: badges.length };
}
