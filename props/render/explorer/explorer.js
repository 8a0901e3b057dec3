// wormcheck trace explorer: draws a Scene (props/render/explore.go) one step at a time.
// Self-contained: no network, no libraries. y grows upwards, as in every wormcheck picture.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const RED = "#d00000";
let scene = null;
let pos = 0;      // the current frame (flit) or time (schedule)
let last = 0;     // the largest position
let timer = null;

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function html(tag, attrs, parent, text) {
  const e = document.createElement(tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// Geometry: node (x, y) at (M + x*cell, M + (H-1-y)*cell).
let cell = 80, M = 50, R = 11;
function nodeXY(v) {
  const n = scene.grid.nodes[v];
  return [M + n.x * cell, M + (scene.grid.height - 1 - n.y) * cell];
}
// dirOf is the unit vector along channel c on the page: along its dimension on a grid,
// from node to node on a laid-out network.
function dirOf(c) {
  const ch = scene.grid.channels[c];
  if (scene.grid.laid_out) {
    const [x1, y1] = nodeXY(ch.from), [x2, y2] = nodeXY(ch.to);
    const d = Math.hypot(x2 - x1, y2 - y1) || 1;
    return [(x2 - x1) / d, (y2 - y1) / d];
  }
  return ch.dim === 0 ? [ch.dir, 0] : [0, -ch.dir];
}
// lane returns the segments of lane k (0-based, 1 more = further right) of channel c.
function lane(c, k, gap) {
  const ch = scene.grid.channels[c];
  const [ux, uy] = dirOf(c);
  const nx = -uy, ny = ux, off = gap * (k + 1);
  const [x1, y1] = nodeXY(ch.from), [x2, y2] = nodeXY(ch.to);
  const ox = nx * off, oy = ny * off;
  if (!ch.wrap) {
    return [[x1 + ux * R + ox, y1 + uy * R + oy, x2 - ux * R + ox, y2 - uy * R + oy]];
  }
  const stub = cell * 0.42;
  return [[x1 + ux * R + ox, y1 + uy * R + oy, x1 + ux * stub + ox, y1 + uy * stub + oy],
          [x2 - ux * stub + ox, y2 - uy * stub + oy, x2 - ux * R + ox, y2 - uy * R + oy]];
}
function line(g, s, attrs) {
  return el("line", Object.assign({x1: s[0], y1: s[1], x2: s[2], y2: s[3]}, attrs), g);
}

function setup() {
  const g = scene.grid;
  const span = Math.max(g.width, g.height) - 1;
  cell = Math.max(26, Math.min(110, 640 / Math.max(span, 1)));
  R = Math.max(4, Math.min(13, cell * 0.15));
  M = Math.max(40, cell * 0.55);
  const svg = document.getElementById("map");
  const W = 2 * M + (g.width - 1) * cell, H = 2 * M + (g.height - 1) * cell;
  svg.setAttribute("width", W);
  svg.setAttribute("height", H);
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  document.getElementById("title").textContent = scene.title;
  document.getElementById("subtitle").textContent = scene.subtitle || "";
  document.getElementById("violation").textContent = scene.violation || "";
  document.title = "wormcheck: " + scene.title;
  if (scene.kind === "schedule") {
    last = scene.tmax;
    document.getElementById("steps-title").textContent = "Unicasts holding a channel at this time";
    document.getElementById("cycle-title").textContent = "Contention at this time";
    document.getElementById("steps").removeAttribute("start");
  } else {
    last = scene.frames.length - 1;
    const ol = document.getElementById("steps");
    scene.frames.forEach((f, k) => {
      const li = html("li", {"data-step": k}, ol, f.label);
      if (scene.lasso_start >= 0 && k > scene.lasso_start) li.classList.add("lasso");
      li.addEventListener("click", () => go(k));
    });
  }
  const slider = document.getElementById("slider");
  slider.max = last;
  slider.addEventListener("input", () => go(+slider.value));
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(pos - 1));
  document.getElementById("next").addEventListener("click", () => go(pos + 1));
  document.getElementById("last").addEventListener("click", () => go(last));
  document.getElementById("play").addEventListener("click", togglePlay);
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight" || e.key === "l") { go(pos + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft" || e.key === "h") { go(pos - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(last); e.preventDefault(); }
    else if (e.key === " ") { togglePlay(); e.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  legend();
}

function togglePlay() {
  if (timer) { clearInterval(timer); timer = null; return; }
  if (pos >= last) go(0);
  timer = setInterval(() => { if (pos >= last) { clearInterval(timer); timer = null; } else go(pos + 1); }, 600);
}

function hashKey() { return scene.kind === "schedule" ? "t" : "step"; }

function fromHash() {
  const m = new RegExp("[#&]" + hashKey() + "=(\\d+)").exec(location.hash);
  if (m) go(+m[1], true);
}

function go(p, fromURL) {
  p = Math.max(0, Math.min(last, p | 0));
  pos = p;
  const want = "#" + hashKey() + "=" + p;
  if (!fromURL && location.hash !== want) history.replaceState(null, "", want);
  document.getElementById("permalink").href = want;
  document.getElementById("slider").value = p;
  if (scene.kind === "schedule") drawSchedule(); else drawFrame();
  document.body.setAttribute("data-position", p);
}

function legend() {
  const div = document.getElementById("legend");
  const row = (colour, text, style) => {
    const r = html("div", {class: "row"}, div);
    const s = html("span", {class: "swatch"}, r);
    s.style.background = colour;
    if (style) s.style.cssText += style;
    r.appendChild(document.createTextNode(text));
  };
  if (scene.kind === "schedule") {
    for (let t = 1; t <= scene.steps; t++) {
      const u = scene.unicasts.find((x) => x.step === t);
      if (u) row(u.colour, `step ${t}: a unicast of this step holds the channel`);
    }
    if (scene.pair) {
      row("#0072b2", `dashed: the path of ${scene.unicasts[scene.pair[0]].name}`, "height: 2px");
      row("#e69f00", `dashed: the path of ${scene.unicasts[scene.pair[1]].name}`, "height: 2px");
      row(RED, "a channel two unicasts hold at this time (contention)");
    }
    row("#ccc", "channel (free)");
    return;
  }
  scene.messages.forEach((m) => {
    const d = m.dests.map((v) => scene.grid.nodes[v].name).join(", ");
    row(m.colour, `${m.name}: ${scene.grid.nodes[m.source].name} -> ${d} (${m.flits} flits)`);
  });
  row("#555", "thick: a virtual channel held by a message; dots: its buffered flits (header ringed)");
  row("#ccc", "thin: a free virtual channel (one lane per VC, right of the direction)");
  row(RED, "red ring: blocked header; red dashed: the channel it waits for; numbered: the wait-for cycle");
  if (scene.lasso_start >= 0) row("#7a3fb0", `moves ${scene.lasso_start + 1} to ${scene.frames.length - 1} repeat forever (the lasso's cycle)`);
}

function base(svg) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const defs = el("defs", {}, svg);
  const mk = el("marker", {id: "arr", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto"}, defs);
  el("path", {d: "M0,0 L10,5 L0,10 z", fill: "#bbb"}, mk);
  const mr = el("marker", {id: "blk", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto"}, defs);
  el("path", {d: "M0,0 L10,5 L0,10 z", fill: RED}, mr);
  el("rect", {width: "100%", height: "100%", fill: "white"}, svg);
}

function drawNodes(svg) {
  const g = el("g", {id: "nodes"}, svg);
  scene.grid.nodes.forEach((n, v) => {
    const [x, y] = nodeXY(v);
    el("circle", {cx: x, cy: y, r: R, fill: "#f8f8f8", stroke: "#333"}, g);
    if (cell >= 50) el("text", {x: x, y: y + 3, "text-anchor": "middle", "font-size": 8}, g, n.name);
  });
}

function drawFrame() {
  const f = scene.frames[pos];
  const svg = document.getElementById("map");
  base(svg);
  const vcs = Math.max(1, scene.vcs);
  const gap = Math.max(3, Math.min(6, cell / 16));
  const chans = el("g", {id: "channels"}, svg);
  scene.grid.channels.forEach((_, c) => {
    for (let k = 0; k < vcs; k++) lane(c, k, gap).forEach((s) => line(chans, s, {stroke: "#ccc", "marker-end": "url(#arr)"}));
  });
  drawNodes(svg);
  // Sources and destinations.
  const marks = el("g", {id: "marks"}, svg);
  scene.messages.forEach((m, i) => {
    const [x, y] = nodeXY(m.source);
    const d = R + 3 + 2 * i;
    el("rect", {x: x - d, y: y - d, width: 2 * d, height: 2 * d, fill: "none", stroke: m.colour, "stroke-width": 2}, marks);
    m.dests.forEach((v, j) => {
      const [dx, dy] = nodeXY(v);
      el("text", {x: dx + R + 2, y: dy - R - 2 - 10 * i, fill: m.colour, "font-size": 9}, marks, `${m.name}.d${j + 1}`);
    });
  });
  // Holds with their flits.
  const holds = el("g", {id: "holds"}, svg);
  f.holds.forEach((h) => {
    const m = scene.messages[h.message];
    const segs = lane(h.channel, h.vc, gap);
    segs.forEach((s) => line(holds, s, {stroke: m.colour, "stroke-width": 4, "stroke-linecap": "round", class: "hold"}));
    const s = segs[segs.length - 1];
    h.flits.forEach((fl, j) => {
      const t = 0.85 - 0.18 * j;
      const x = s[0] + (s[2] - s[0]) * t, y = s[1] + (s[3] - s[1]) * t;
      const c = el("circle", {cx: x, cy: y, r: 3.2, fill: m.colour, stroke: fl === 0 ? "#000" : "white", "stroke-width": fl === 0 ? 1.5 : 0.8, class: "flit"}, holds);
      el("title", {}, c, `${m.name} flit ${fl} in ${scene.grid.channels[h.channel].name} vc${h.vc}`);
    });
  });
  // Blocked headers.
  const blk = el("g", {id: "blockedg"}, svg);
  const ul = document.getElementById("blocked");
  ul.innerHTML = "";
  f.blocked.forEach((b) => {
    const [x, y] = nodeXY(b.at);
    el("circle", {cx: x, cy: y, r: R + 4, fill: "none", stroke: RED, "stroke-width": 3, class: "blocked"}, blk);
    let want = "delivery";
    if (b.wants >= 0) {
      lane(b.wants, 0, gap).forEach((s) => line(blk, s, {stroke: RED, "stroke-width": 2, "stroke-dasharray": "3 2", "marker-end": "url(#blk)"}));
      want = scene.grid.channels[b.wants].name;
    }
    html("li", {}, ul, `${b.label} at ${scene.grid.nodes[b.at].name} waits for ${want}`);
  });
  if (!f.blocked.length) html("li", {}, ul, "none");
  // The wait-for cycle.
  const ol = document.getElementById("cycle");
  ol.innerHTML = "";
  const cyc = el("g", {id: "cycleg"}, svg);
  (f.cycle || []).forEach((l, k) => {
    const b = f.blocked[l.header];
    let x, y;
    if (b.wants >= 0) {
      const s = lane(b.wants, 0, gap)[0];
      x = s[0] + (s[2] - s[0]) * 0.35; y = s[1] + (s[3] - s[1]) * 0.35;
    } else {
      [x, y] = nodeXY(b.at); x += R; y += R;
    }
    el("circle", {cx: x, cy: y, r: 8, fill: RED, class: "cycle-num"}, cyc);
    el("text", {x: x, y: y + 3.5, fill: "white", "font-size": 10, "font-weight": "bold", "text-anchor": "middle"}, cyc, String(k + 1));
    html("li", {}, ol, l.text);
  });
  document.getElementById("cycle-section").style.display = (f.cycle && f.cycle.length) ? "" : "none";
  // Messages' progress and the step list.
  document.getElementById("position").textContent = `move ${pos} / ${last}`;
  let lbl = f.label;
  if (scene.lasso_start >= 0 && pos >= scene.lasso_start) lbl += `  (in the lasso's cycle: after move ${last} the network is back in the state after move ${scene.lasso_start})`;
  document.getElementById("label").textContent = lbl;
  document.querySelectorAll("#steps li").forEach((li) => li.classList.toggle("current", +li.dataset.step === pos));
  const cur = document.querySelector("#steps li.current");
  if (cur && cur.scrollIntoView) cur.scrollIntoView({block: "nearest"});
}

function drawSchedule() {
  const t = pos;
  const svg = document.getElementById("map");
  base(svg);
  const gap = Math.max(2, Math.min(5, cell / 16));
  const chans = el("g", {id: "channels"}, svg);
  scene.grid.channels.forEach((_, c) => lane(c, 0, gap).forEach((s) => line(chans, s, {stroke: "#ddd"})));
  drawNodes(svg);
  // The witness pair's whole paths, dashed, so one sees where they go at any time.
  const paths = el("g", {id: "pairpaths"}, svg);
  (scene.pair || []).forEach((i, j) => {
    const u = scene.unicasts[i];
    const colour = j === 0 ? "#0072b2" : "#e69f00";
    u.path.forEach((c) => lane(c, 2 + j, gap).forEach((s) => line(paths, s, {stroke: colour, "stroke-width": 1.5, "stroke-dasharray": "4 3"})));
    const [x, y] = nodeXY(u.from);
    const right = x > +svg.getAttribute("width") * 0.8; // near the right edge: label on the left
    el("text", {x: right ? x - R - 2 : x + R + 2, y: y + R + 10 + 10 * j, fill: colour, "font-size": 10, "font-weight": "bold",
      "text-anchor": right ? "end" : "start"}, paths, u.name.split(" ")[0] + " sends");
  });
  // Who holds which channel at t.
  const holders = new Map();
  scene.unicasts.forEach((u, i) => u.holds.forEach((h, k) => {
    if (h[0] <= t && t < h[1]) {
      const c = u.path[k];
      if (!holders.has(c)) holders.set(c, []);
      holders.get(c).push(i);
    }
  }));
  const g = el("g", {id: "occupancy"}, svg);
  const list = document.getElementById("steps");
  list.innerHTML = "";
  const ol = document.getElementById("cycle");
  ol.innerHTML = "";
  const keys = Array.from(holders.keys()).sort((a, b) => a - b);
  keys.forEach((c) => {
    const us = holders.get(c);
    const contended = us.length > 1;
    us.forEach((i, j) => {
      const u = scene.unicasts[i];
      const hot = scene.pair && scene.pair.includes(i);
      lane(c, j, gap).forEach((s) => line(g, s, {stroke: contended ? RED : u.colour, "stroke-width": hot ? 5 : 3.5, "stroke-linecap": "round", class: contended ? "contended" : "held"}));
      html("li", {}, list, `${u.name} (step ${u.step}) holds ${scene.grid.channels[c].name}`);
    });
    if (contended) html("li", {}, ol, `${scene.grid.channels[c].name} is held by ${us.map((i) => scene.unicasts[i].name).join(" and ")}`);
  });
  if (!keys.length) html("li", {}, list, "no channel is held");
  document.getElementById("cycle-section").style.display = ol.children.length ? "" : "none";
  if (scene.shared >= 0) {
    lane(scene.shared, -1, gap).forEach((s) => line(g, s, {stroke: RED, "stroke-width": 1, "stroke-dasharray": "2 2"}));
  }
  document.getElementById("blocked").innerHTML = "<li>(schedules have no flit-level headers)</li>";
  document.getElementById("position").textContent = `t = ${t} / ${last}`;
  const p = scene.params;
  document.getElementById("label").textContent = `time ${t} (ts=${p.ts}, tr=${p.tr}, tc=${p.tc}, L=${p.L})`;
}

fetch("scene.json").then((r) => r.json()).then((s) => {
  scene = s;
  setup();
  go(0, true);
  fromHash();
  document.body.setAttribute("data-ready", "true");
}).catch((e) => {
  document.getElementById("title").textContent = "cannot load the scene: " + e;
});
