// The kg explorer: a client of kg's public GraphQL API (nothing private), drawn with sigma.js.
// Views: / (start), /author/<id>, /paper/<id>, /concept/<id>; every view is its own URL.
import Graph from "graphology";
import forceAtlas2 from "graphology-layout-forceatlas2";
import Sigma from "sigma";
import AUTHOR from "../../graphql/operations/explorer_author.graphql";
import PAPER from "../../graphql/operations/explorer_paper.graphql";
import CONCEPT from "../../graphql/operations/explorer_concept.graphql";

const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d"];
const OTHER = "#b9bec4";
const PATH = "#b4233c";
const NETWORK_STEP = 150; // authors drawn at first, and added by each "show more"

const $ = (id) => document.getElementById(id);
const state = { renderer: null, graph: null, view: null, ready: false };
window.kgExplorer = state; // read by the end-to-end tests (and handy in the console)

// -- GraphQL -------------------------------------------------------------------------------
async function api(query, variables = {}) {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data;
}

// -- small DOM helpers ----------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const href = (kind, id) => `/${kind}/${encodeURIComponent(id)}`;
const link = (kind, id, text) => el("a", { href: href(kind, id), "data-nav": "" }, text);
const list = (items) => el("ul", {}, items.map((item) => el("li", {}, item)));

// -- routing ----------------------------------------------------------------------------------
function navigate(path) {
  history.pushState({}, "", path);
  route();
}

document.addEventListener("click", (event) => {
  const a = event.target.closest("a[data-nav]");
  if (a && !event.metaKey && !event.ctrlKey) {
    event.preventDefault();
    navigate(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);

async function route() {
  const [, kind, ...rest] = location.pathname.split("/");
  const id = decodeURIComponent(rest.join("/"));
  setReady(false);
  clearGraph();
  $("panel").replaceChildren(el("p", { class: "muted" }, "Loading…"));
  try {
    if (kind === "author" && id) await authorView(id, NETWORK_STEP);
    else if (kind === "paper" && id) await paperView(id);
    else if (kind === "concept" && id) await conceptView(id);
    else await startView();
  } catch (error) {
    $("panel").replaceChildren(el("p", { class: "error" }, String(error.message || error)));
  }
  setReady(true);
}

function setReady(ready) {
  state.ready = ready;
  document.body.dataset.ready = ready ? "1" : "0";
  if (ready) performance.mark(`kg-ready:${location.pathname}`);
}

// -- the graph --------------------------------------------------------------------------------
function clearGraph() {
  if (state.renderer) state.renderer.kill();
  state.renderer = null;
  state.graph = null;
  $("legend").replaceChildren();
  $("tooltip").hidden = true;
}

function layOut(graph) {
  // Start on a circle (deterministic), then ForceAtlas2 in this thread: graphs here are capped
  // (hundreds of nodes), where a fixed number of iterations takes well under a second.
  let i = 0;
  graph.forEachNode((node) => {
    const angle = (2 * Math.PI * i++) / Math.max(graph.order, 1);
    graph.mergeNodeAttributes(node, { x: Math.cos(angle) * 100, y: Math.sin(angle) * 100 });
  });
  if (graph.order > 1) {
    forceAtlas2.assign(graph, { iterations: graph.order > 400 ? 80 : 150, settings: forceAtlas2.inferSettings(graph) });
  }
}

function draw(graph, { onClick, tooltip, edgeLabels = false }) {
  layOut(graph);
  state.graph = graph;
  const renderer = new Sigma(graph, $("graph"), {
    renderEdgeLabels: edgeLabels,
    labelRenderedSizeThreshold: graph.order <= 60 ? 0 : 6, // small graphs: every name; big ones: the larger nodes
    defaultEdgeColor: "#c9ced4",
    zIndex: true,
  });
  state.renderer = renderer;
  const tip = $("tooltip");
  renderer.on("enterNode", ({ node }) => {
    const at = renderer.graphToViewport(graph.getNodeAttributes(node));
    tip.textContent = tooltip(node, graph.getNodeAttributes(node));
    tip.style.left = `${at.x + 12}px`;
    tip.style.top = `${at.y + 12}px`;
    tip.hidden = false;
    $("graph").style.cursor = "pointer";
  });
  renderer.on("leaveNode", () => {
    tip.hidden = true;
    $("graph").style.cursor = "";
  });
  renderer.on("clickNode", ({ node }) => onClick(node));
  return renderer;
}

function legend(title, entries, note) {
  $("legend").replaceChildren(
    el("strong", {}, title),
    el("ul", {}, entries.map(([color, text]) => el("li", {}, el("span", { class: "swatch", style: `background:${color}` }), text))),
    note ? el("div", { class: "muted" }, note) : "",
  );
}

// -- start ------------------------------------------------------------------------------------
async function startView() {
  const data = await api(`{ stats { papers authors concepts }
    authors(first: 10) { edges { node { id name paperCount } } }
    concepts(first: 10) { edges { node { id name paperCount } } } }`);
  const s = data.stats;
  $("panel").replaceChildren(
    el("h1", {}, "kg explorer"),
    el("p", { class: "muted" }, `${s.papers} papers, ${s.authors} authors, ${s.concepts} concepts. Search above, or start here.`),
    el("h2", {}, "Most prolific authors"),
    list(data.authors.edges.map(({ node }) => [link("author", node.id, node.name), ` (${node.paperCount})`])),
    el("h2", {}, "Most common concepts"),
    list(data.concepts.edges.map(({ node }) => [link("concept", node.id, node.name), ` (${node.paperCount})`])),
  );
  document.title = "kg explorer";
}

// -- author -----------------------------------------------------------------------------------

async function authorView(id, first, depth = 2) {
  const { author } = await api(AUTHOR, { id, depth, first });
  if (!author) throw new Error(`No author ${id}`);
  const { people } = await api(`query P($n: String!) { people(name: $n) { author { id name } hint } }`, { n: author.name });
  document.title = `${author.name} — kg`;
  state.view = { kind: "author", id: author.id };
  const net = author.network;
  const community = new Map();
  net.communities.forEach((members, i) => members.forEach((m) => community.set(m, i)));
  const graph = new Graph({ type: "undirected" });
  for (const n of net.nodes) {
    const c = community.get(n.id);
    graph.addNode(n.id, {
      label: n.name, papers: n.paperCount, community: c,
      size: 3 + 2.2 * Math.sqrt(n.paperCount), color: c < PALETTE.length ? PALETTE[c] : OTHER,
      zIndex: n.id === author.id ? 2 : 0,
    });
  }
  for (const e of net.edges) graph.addEdge(e.source, e.target, { weight: e.weight, size: 0.6 + 1.4 * Math.log2(1 + e.weight) });
  graph.mergeNodeAttributes(author.id, { highlighted: true });
  draw(graph, {
    onClick: (node) => navigate(href("author", node)),
    tooltip: (node, a) => {
      const joint = graph.hasEdge(author.id, node) ? `, ${graph.getEdgeAttribute(author.id, node, "weight")} with ${author.name}` : "";
      return `${a.label}: ${a.papers} papers${joint}`;
    },
  });
  legend(
    "Communities (Louvain)",
    net.communities.slice(0, PALETTE.length).map((members, i) => [PALETTE[i], `${graph.getNodeAttribute(members[0], "label")} + ${members.length - 1}`]),
    "Size: papers. Width: joint papers.",
  );

  const concepts = new Map();
  for (const p of author.papers) for (const c of p.concepts) concepts.set(c.id, { name: c.name, n: (concepts.get(c.id)?.n || 0) + 1 });
  const topConcepts = [...concepts.entries()].sort((a, b) => b[1].n - a[1].n || a[1].name.localeCompare(b[1].name)).slice(0, 10);
  const pathInput = el("input", { id: "path-to", placeholder: "another author", "aria-label": "Path to another author" });
  const pathOut = el("p", { id: "path-result", "aria-live": "polite" });
  const more = net.totalNodes > net.nodes.length
    ? el("button", { id: "show-more", onclick: () => route2(() => authorView(id, first + NETWORK_STEP, depth)) },
      `Show more (${net.nodes.length} of ${net.totalNodes})`)
    : el("span", { class: "muted" }, `${net.nodes.length} authors within ${depth} hops`);
  $("panel").replaceChildren(
    el("h1", {}, author.name),
    el("p", { class: "muted" }, `${plural(author.paperCount, "paper")}, ${plural(author.coauthors.length, "co-author")}`),
    othersNamed(author, people),
    author.institutions.length ? el("p", {}, author.institutions.map((i) => `${i.name} (${i.papers})`).join("; ")) : "",
    el("div", { class: "controls" }, more),
    el("h2", {}, "Path to…"),
    el("form", { class: "controls", onsubmit: (e) => { e.preventDefault(); showPath(author, pathInput.value, pathOut); } },
      pathInput, el("button", { type: "submit" }, "Find")),
    pathOut,
    el("h2", {}, "Top concepts"),
    list(topConcepts.map(([cid, c]) => [link("concept", cid, c.name), ` (${c.n})`])),
    el("h2", {}, "Co-authors"),
    list(author.coauthors.slice(0, 50).map((c) => [link("author", c.author.id, c.author.name), ` (${c.jointPapers})`])),
    el("h2", {}, "Papers"),
    list([...author.papers].sort((a, b) => (b.year || 0) - (a.year || 0)).map((p) => [link("paper", p.id, p.label), p.year ? ` (${p.year})` : ""])),
  );
}

async function route2(render) {
  setReady(false);
  clearGraph();
  try { await render(); } catch (error) { $("panel").replaceChildren(el("p", { class: "error" }, String(error.message || error))); }
  setReady(true);
}

// Other people who bear this name (kg tells people apart), each with what tells them apart.
function othersNamed(author, people) {
  const others = people.filter((p) => p.author.id !== author.id);
  if (!others.length) return "";
  return el("div", { class: "others" },
    el("p", {}, `${others.length} other ${others.length === 1 ? "person" : "people"} named ${author.name}:`),
    list(others.map((p) => [link("author", p.author.id, p.author.name), ` — ${p.hint}`])));
}

async function showPath(author, target, out) {
  const { collaborationPath } = await api(`query P($from: String!, $to: String!) { collaborationPath(from: $from, to: $to) { id name } }`,
    { from: author.id, to: target });
  if (!collaborationPath) { out.replaceChildren(el("span", { class: "error" }, `No co-author path to ${target}`)); return; }
  const graph = state.graph;
  const ids = collaborationPath.map((a) => a.id);
  ids.forEach((id, i) => {
    if (!graph.hasNode(id)) {
      const prev = graph.getNodeAttributes(ids[i - 1]);
      graph.addNode(id, { label: collaborationPath[i].name, papers: 0, size: 6, x: prev.x + 20, y: prev.y + 20 });
    }
    graph.mergeNodeAttributes(id, { color: PATH, highlighted: true, zIndex: 3, onPath: true });
    if (i > 0) {
      const edge = graph.hasEdge(ids[i - 1], id) ? graph.edge(ids[i - 1], id) : graph.addEdge(ids[i - 1], id, { size: 2 });
      graph.mergeEdgeAttributes(edge, { color: PATH, size: 3, zIndex: 3, onPath: true });
    }
  });
  state.path = ids;
  out.replaceChildren(el("span", { class: "path" }, ...collaborationPath.flatMap((a, i) => [i ? " → " : "", link("author", a.id, a.name)])));
}

// -- paper ------------------------------------------------------------------------------------

function yearColor(year, lo, hi) {
  if (!year) return OTHER;
  const t = hi > lo ? (year - lo) / (hi - lo) : 1;
  return `hsl(${220 - 200 * t}, 65%, ${55 - 10 * t}%)`;
}

async function paperView(id) {
  const { paper } = await api(PAPER, { id });
  if (!paper) throw new Error(`No paper ${id}`);
  document.title = `${paper.label} — kg`;
  state.view = { kind: "paper", id: paper.id };
  const graph = new Graph({ type: "undirected" });
  const add = (p) => { if (!graph.hasNode(p.id)) graph.addNode(p.id, { label: p.label.slice(0, 60), year: p.year, fullLabel: p.label }); };
  const link2 = (a, b, shared) => {
    if (a !== b && !graph.hasEdge(a, b)) graph.addEdge(a, b, { label: shared.slice(0, 2).map((c) => c.name).join(", "), size: 1.5 });
  };
  add(paper);
  for (const r of paper.related) {
    add(r.paper);
    link2(paper.id, r.paper.id, r.sharedConcepts);
    for (const r2 of r.paper.related) { add(r2.paper); link2(r.paper.id, r2.paper.id, r2.sharedConcepts); }
  }
  const years = graph.mapNodes((n, a) => a.year).filter(Boolean);
  const lo = Math.min(...years), hi = Math.max(...years);
  graph.forEachNode((n, a) => graph.mergeNodeAttributes(n, {
    size: n === paper.id ? 14 : 7, color: yearColor(a.year, lo, hi), zIndex: n === paper.id ? 2 : 0,
  }));
  draw(graph, { onClick: (node) => navigate(href("paper", node)), tooltip: (n, a) => `${a.fullLabel}${a.year ? ` (${a.year})` : ""}`, edgeLabels: true });
  const yearKeys = lo === hi ? [[yearColor(lo, lo, hi), String(lo)]] : [[yearColor(lo, lo, hi), String(lo)], [yearColor(hi, lo, hi), String(hi)]];
  legend("Year", [...(years.length ? yearKeys : []), [OTHER, "year unknown"]], "Edges: the concepts two papers share.");

  $("panel").replaceChildren(
    el("h1", {}, paper.title || paper.label),
    el("p", { class: "muted" }, [paper.venue, paper.year, paper.citations != null ? `${paper.citations} citations` : ""].filter(Boolean).join(" · ")),
    el("p", {}, ...paper.authors.flatMap((a, i) => [i ? ", " : "", link("author", a.id, a.name)])),
    paper.areas.length ? el("p", { class: "muted" }, paper.areas.map((a) => a.path).join("; ")) : "",
    el("h2", {}, "Abstract"),
    highlighted(paper.abstract, paper.concepts),
    el("h2", {}, "Key concepts"),
    list(paper.concepts.map((c) => link("concept", c.id, c.name))),
    el("h2", {}, "Related papers"),
    list(paper.related.map((r) => [link("paper", r.paper.id, r.paper.label), el("span", { class: "muted" }, ` — ${r.sharedConcepts.map((c) => c.name).join(", ")}`)])),
  );
}

function highlighted(text, concepts) {
  // Each concept's name and aliases, longest first, marked where they occur (case-insensitive).
  const names = concepts.flatMap((c) => [c.name, ...c.aliases].map((n) => [n, c.id])).filter(([n]) => n.length > 1);
  names.sort((a, b) => b[0].length - a[0].length);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const p = el("p", { class: "abstract" });
  if (!names.length || !text) { p.append(text || ""); return p; }
  const pattern = new RegExp(`\\b(${names.map(([n]) => escape(n)).join("|")})`, "gi");
  const idOf = new Map(names.map(([n, id]) => [n.toLowerCase(), id]));
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    p.append(text.slice(last, m.index));
    p.append(el("mark", {}, link("concept", idOf.get(m[0].toLowerCase()), m[0])));
    last = m.index + m[0].length;
  }
  p.append(text.slice(last));
  return p;
}

// -- concept ----------------------------------------------------------------------------------

async function conceptView(id) {
  const { concept, paperFacets } = await api(CONCEPT, { name: id });
  if (!concept) throw new Error(`No concept ${id}`);
  document.title = `${concept.name} — kg`;
  state.view = { kind: "concept", id: concept.id };
  const graph = new Graph({ type: "undirected" });
  graph.addNode(concept.id, { label: concept.name, size: 14, color: PATH });
  for (const r of concept.related) {
    graph.addNode(r.concept.id, { label: r.concept.name, size: 4 + 2 * Math.sqrt(r.sharedPapers), color: PALETTE[0] });
    graph.addEdge(concept.id, r.concept.id, { size: 0.6 + Math.log2(1 + r.sharedPapers), label: plural(r.sharedPapers, "paper") });
  }
  draw(graph, { onClick: (node) => navigate(href("concept", node)), tooltip: (n, a) => a.label, edgeLabels: true });
  legend("Related concepts", [[PATH, concept.name], [PALETTE[0], "co-occurs on papers"]], "Width: papers shared.");
  $("panel").replaceChildren(
    el("h1", {}, concept.name),
    el("p", { class: "muted" }, plural(concept.paperCount, "paper")),
    concept.aliases.length ? el("p", {}, "Also: ", concept.aliases.join(", ")) : "",
    concept.broader ? el("p", {}, "Broader: ", link("concept", concept.broader.id, concept.broader.name)) : "",
    el("h2", {}, "Papers per year"),
    yearChart(paperFacets.years),
    el("h2", {}, `Papers (${concept.papers.totalCount}), most about it first`),
    el("ol", { id: "concept-papers" }, concept.papers.edges.map(({ node }) => el("li", {}, link("paper", node.id, node.label), node.year ? ` (${node.year})` : ""))),
    el("h2", {}, "Related concepts"),
    list(concept.related.map((r) => [link("concept", r.concept.id, r.concept.name), ` (${r.sharedPapers})`])),
  );
}

function yearChart(years) {
  if (!years.length) return el("p", { class: "muted" }, "No years known.");
  const ns = "http://www.w3.org/2000/svg";
  const w = 360, h = 90, bw = Math.max(2, Math.floor((w - 10) / years.length) - 2);
  const max = Math.max(...years.map((y) => y.papers));
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "years");
  svg.setAttribute("viewBox", `0 0 ${w} ${h + 14}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", years.map((y) => `${y.year}: ${y.papers}`).join(", "));
  years.forEach((y, i) => {
    const r = document.createElementNS(ns, "rect");
    const bh = Math.max(1, Math.round((h * y.papers) / max));
    Object.entries({ x: 5 + i * (bw + 2), y: h - bh, width: bw, height: bh }).forEach(([k, v]) => r.setAttribute(k, v));
    const t = document.createElementNS(ns, "title");
    t.textContent = `${y.year}: ${y.papers}`;
    r.append(t);
    svg.append(r);
  });
  for (const y of [years[0], years[years.length - 1]]) {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", y === years[0] ? 5 : w - 30);
    t.setAttribute("y", h + 11);
    t.textContent = y.year;
    svg.append(t);
  }
  return svg;
}

// -- search with autocomplete -------------------------------------------------------------------
const input = $("q");
const box = $("suggestions");
let active = -1;
let timer = null;
let asked = 0;

function showSuggestions(items) {
  active = -1;
  box.replaceChildren(...items.map((s, i) => el("li", {
    role: "option", id: `sugg-${i}`, "aria-selected": "false", "data-href": href(s.kind.toLowerCase(), s.id),
    onmousedown: (e) => { e.preventDefault(); pick(i); },
  }, el("span", {}, s.label), el("span", { class: "kind" }, s.hint ? `${s.kind} · ${s.hint}` : `${s.kind} · ${s.papers}`))));
  box.hidden = !items.length;
  input.closest(".search").setAttribute("aria-expanded", String(!box.hidden));
}

function pick(i) {
  const item = box.children[i];
  if (!item) return;
  box.hidden = true;
  input.blur();
  navigate(item.dataset.href);
}

input.addEventListener("input", () => {
  clearTimeout(timer);
  const prefix = input.value.trim();
  if (!prefix) { showSuggestions([]); return; }
  timer = setTimeout(async () => {
    const mine = ++asked;
    const { suggest } = await api(`query S($p: String!) { suggest(prefix: $p, first: 5) { kind id label papers hint } }`, { p: prefix });
    if (mine === asked) showSuggestions(suggest);
  }, 120);
});

input.addEventListener("keydown", (e) => {
  const n = box.children.length;
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault();
    if (!n) return;
    active = (active + (e.key === "ArrowDown" ? 1 : n - 1)) % n;
    [...box.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === active)));
    input.setAttribute("aria-activedescendant", `sugg-${active}`);
  } else if (e.key === "Enter") {
    e.preventDefault();
    if (n) pick(Math.max(active, 0));
  } else if (e.key === "Escape") {
    box.hidden = true;
  }
});
input.addEventListener("blur", () => setTimeout(() => { box.hidden = true; }, 150));

route();
