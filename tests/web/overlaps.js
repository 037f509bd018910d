// Evaluated in the page: every pair of map labels (city names, connection costs) and city discs
// that overlap, in map units (the same at every size of the board), allowing `slack` units.
(slack) => {
  const svg = document.querySelector("#board svg.board");
  const boxes = [];
  const unitBox = (node) => {
    const b = node.getBBox();
    return { x: b.x + slack, y: b.y + slack, w: b.width - 2 * slack, h: b.height - 2 * slack };
  };
  for (const node of svg.querySelectorAll(".city-name")) boxes.push({ kind: "name", id: node.textContent, ...unitBox(node) });
  for (const node of svg.querySelectorAll(".cost-label rect")) {
    const g = node.parentNode;
    boxes.push({ kind: "cost", id: `${g.dataset.a}-${g.dataset.b}`, ...unitBox(node) });
  }
  const discs = [...svg.querySelectorAll(".city")].map((g) => {
    const m = g.transform.baseVal.consolidate().matrix;
    return { id: g.dataset.city, x: m.e, y: m.f, r: Number(g.querySelector(".city-disc").getAttribute("r")) };
  });
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j];
      if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) overlaps.push(`${a.kind} ${a.id} / ${b.kind} ${b.id}`);
    }
    for (const d of discs) {
      const nx = Math.max(a.x, Math.min(d.x, a.x + a.w));
      const ny = Math.max(a.y, Math.min(d.y, a.y + a.h));
      if ((nx - d.x) ** 2 + (ny - d.y) ** 2 < (d.r - slack) ** 2) overlaps.push(`${a.kind} ${a.id} / city ${d.id}`);
    }
  }
  for (let i = 0; i < discs.length; i++) {
    for (let j = i + 1; j < discs.length; j++) {
      const [a, b] = [discs[i], discs[j]];
      if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r) overlaps.push(`city ${a.id} / city ${b.id}`);
    }
  }
  return { overlaps, names: boxes.filter((b) => b.kind === "name").length, costs: boxes.filter((b) => b.kind === "cost").length };
}
