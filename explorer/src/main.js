// The kg explorer: a client of kg's public GraphQL API (nothing private), drawn with sigma.js.
// Views: / (the field map), /author/<id>, /paper/<id>, /concept/<id>; every view is its own URL.
import Graph from "graphology";
import forceAtlas2 from "graphology-layout-forceatlas2";
import Sigma from "sigma";
import * as Plot from "@observablehq/plot";
import HOME from "../../graphql/operations/explorer_home.graphql";
import AUTHOR from "../../graphql/operations/explorer_author.graphql";
import PAPER from "../../graphql/operations/explorer_paper.graphql";
import CONCEPT from "../../graphql/operations/explorer_concept.graphql";
import CITATIONS from "../../graphql/operations/explorer_citations.graphql";

const PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d"];
const OTHER = "#b9bec4";
const PATH = "#b4233c";
const NETWORK_STEP = 150; // authors drawn at first, and added by each "show more"
const MAP_CONCEPTS = 150; // concepts on the field map
const MAX_LABELS = 40; // labels drawn at once, the most important first, never overlapping
const LABEL_SIZE = 13;
const LABEL_FONT = "system-ui, -apple-system, 'Segoe UI', sans-serif";
const TITLE_CHARS = 42; // a title on a graph is cut at a word boundary before this; the tooltip has it whole
const OLD = "#4e79a7", NEW = "#f28e2b"; // year colours: the oldest paper of a map, and the newest
const CITES = "#5a6270"; // an edge where one paper cites the other
const CITED_BY = "#e15759", COUPLED = "#76b7b2", STUB = "#d5d9de", THIS_PAPER = "#f28e2b"; // the citation view's kinds of link, and works kg lacks

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
    else if (kind === "paper" && id && new URLSearchParams(location.search).get("view") === "citations") await citationView(id);
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

function draw(graph, { onClick, tooltip, edgeTip, importance, placed = false }) {
  if (!placed) layOut(graph); // a view that placed its nodes itself (the citation view: x by year) keeps them
  state.graph = graph;
  let labelled = new Set(); // the nodes whose label is drawn: chosen by chooseLabels, never overlapping
  const renderer = new Sigma(graph, $("graph"), {
    renderEdgeLabels: false, // an edge says what it is on hover (edgeTip), never as grey text across the map
    enableEdgeEvents: Boolean(edgeTip),
    labelSize: LABEL_SIZE,
    labelFont: LABEL_FONT,
    labelRenderedSizeThreshold: 0,
    defaultEdgeColor: "#d5d9de",
    zIndex: true,
    nodeReducer: (node, data) => (labelled.has(node) ? { ...data, forceLabel: true } : { ...data, label: null }),
  });
  state.renderer = renderer;
  const rank = importance || ((node, a) => a.size || 1);
  const relabel = () => {
    labelled = chooseLabels(renderer, graph, rank);
    state.labelled = [...labelled];
    renderer.refresh();
  };
  relabel();
  state.relabel = relabel;
  let pending = null;
  renderer.getCamera().on("updated", () => { clearTimeout(pending); pending = setTimeout(relabel, 60); });
  const tip = $("tooltip");
  const show = (text, x, y) => {
    tip.textContent = text;
    tip.style.left = `${x + 12}px`;
    tip.style.top = `${y + 12}px`;
    tip.hidden = false;
  };
  renderer.on("enterNode", ({ node }) => {
    const at = renderer.graphToViewport(graph.getNodeAttributes(node));
    show(tooltip(node, graph.getNodeAttributes(node)), at.x, at.y);
    $("graph").style.cursor = "pointer";
  });
  renderer.on("leaveNode", () => {
    tip.hidden = true;
    $("graph").style.cursor = "";
  });
  if (edgeTip) {
    renderer.on("enterEdge", ({ edge, event }) => show(edgeTip(edge, graph.getEdgeAttributes(edge)), event.x, event.y));
    renderer.on("leaveEdge", () => { tip.hidden = true; });
  }
  renderer.on("clickNode", ({ node }) => onClick(node));
  return renderer;
}

// The labels to draw: the most important nodes first, each label's box (as sigma draws it: right of the
// disc, LABEL_SIZE high) kept only if it lies wholly inside the canvas and overlaps no label already kept.
function chooseLabels(renderer, graph, rank) {
  const measure = labelMeasure();
  const { width, height } = renderer.getDimensions();
  const order = graph.nodes().filter((n) => graph.getNodeAttribute(n, "label"));
  order.sort((a, b) => rank(b, graph.getNodeAttributes(b)) - rank(a, graph.getNodeAttributes(a)) || (a < b ? -1 : 1));
  const kept = [], boxes = [];
  for (const node of order) {
    if (kept.length >= MAX_LABELS) break;
    const box = labelBox(renderer, node, graph.getNodeAttribute(node, "label"), measure);
    if (!box || box.x < 0 || box.y < 0 || box.x + box.w > width || box.y + box.h > height) continue;
    if (boxes.some((b) => b.x < box.x + box.w && box.x < b.x + b.w && b.y < box.y + box.h && box.y < b.y + b.h)) continue;
    kept.push(node);
    boxes.push(box);
  }
  return new Set(kept);
}

function labelBox(renderer, node, text, measure) {
  const data = renderer.getNodeDisplayData(node);
  if (!data || data.hidden) return null;
  const at = renderer.framedGraphToViewport(data);
  const size = renderer.scaleSize(data.size);
  return { x: at.x + size + 3, y: at.y - LABEL_SIZE * 0.75, w: measure.measureText(text).width + 2, h: LABEL_SIZE + 2 };
}
function labelMeasure() { // a 2D context set to the labels' font, to measure their width as sigma draws them
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = `normal ${LABEL_SIZE}px ${LABEL_FONT}`;
  return measure;
}
window.kgLabelBox = (node) => // for the tests: the box of a drawn label, measured as chooseLabels measures it
  labelBox(state.renderer, node, state.renderer.getNodeDisplayData(node).label, labelMeasure());

// A long title cut at a word boundary (the whole title is in the tooltip and the panel).
function shorten(text, most = TITLE_CHARS) {
  if (text.length <= most) return text;
  const cut = text.slice(0, most - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > most / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

function legend(title, entries, note) {
  $("legend").replaceChildren(
    el("strong", {}, title),
    el("ul", {}, entries.map(([color, text]) => el("li", {}, el("span", { class: "swatch", style: `background:${color}` }), text))),
    note ? el("div", { class: "muted" }, note) : "",
  );
}

// -- start: the field map ------------------------------------------------------------------------
async function startView() {
  const data = await api(HOME, { first: MAP_CONCEPTS });
  const s = data.stats;
  document.title = "kg explorer";
  state.view = { kind: "home" };
  const map = data.fieldMap;
  if (map.concepts.length) {
    const graph = new Graph({ type: "undirected" });
    const most = Math.max(...map.concepts.map((c) => c.papers));
    for (const c of map.concepts) {
      graph.addNode(c.concept.id, {
        label: c.concept.name, papers: c.papers, community: c.community,
        size: 3 + 14 * Math.sqrt(c.papers / most), color: c.community < PALETTE.length ? PALETTE[c.community] : OTHER,
      });
    }
    for (const l of map.links) {
      if (!graph.hasEdge(l.source, l.target)) graph.addEdge(l.source, l.target, { weight: l.sharedPapers, size: 0.5 + Math.log2(1 + l.sharedPapers) / 2 });
    }
    draw(graph, {
      onClick: (node) => navigate(href("concept", node)),
      tooltip: (node, a) => `${a.label}: ${plural(a.papers, "paper")}`,
      edgeTip: (edge, a) => `${graph.getNodeAttribute(graph.source(edge), "label")} + ${graph.getNodeAttribute(graph.target(edge), "label")}: ${plural(a.weight, "paper")} together`,
      importance: (node, a) => a.papers,
    });
    const groups = new Map();
    for (const c of map.concepts) if (!groups.has(c.community)) groups.set(c.community, c.concept.name);
    legend("Communities of concepts (Louvain)", [...groups.entries()].slice(0, 6).filter(([c]) => c < PALETTE.length)
      .map(([c, name]) => [PALETTE[c], `around ${name}`]), "Size: papers. Links: papers sharing both.");
  }
  const people = data.authors.edges.map(({ node }) => node).filter((a) => a.paperCount > 1);
  const trends = data.trends;
  const rising = trends.concepts;
  $("panel").replaceChildren(
    el("h1", {}, "kg explorer"),
    el("p", { class: "muted", id: "counts" }, `${s.papers} papers, ${s.authors} people, ${s.concepts} concepts. ` +
      (map.concepts.length ? `The map shows the ${map.concepts.length} concepts with most papers; click one, or search above.` : "Ingest papers to see the field.")),
    el("h2", {}, "Rising concepts"),
    rising.length
      ? el("div", {}, el("p", { class: "muted" }, `Share of papers, ${trends.since}–${trends.until} (${plural(trends.papers, "paper")}) against ${trends.earlierFrom}–${trends.earlierTo} (${trends.earlierPapers})`),
        el("ol", { id: "rising" }, rising.map((t) => el("li", {}, link("concept", t.concept.id, t.concept.name), el("span", { class: "muted" }, ` ${t.papers} papers (${t.earlierPapers} before)`)))))
      : el("p", { class: "muted", id: "no-trends" }, `Nothing rose that can be told: ${trends.note}.`),
    el("h2", {}, "Most prolific people"),
    people.length
      ? list(people.map((a) => [link("author", a.id, a.name), ` (${a.paperCount})`]))
      : el("p", { class: "muted" }, "Everyone here has one paper so far."),
    el("h2", {}, "Most common concepts"),
    list(map.concepts.slice(0, 10).map((c) => [link("concept", c.concept.id, c.concept.name), ` (${c.papers})`])),
  );
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
    el("h2", {}, "Papers per year"),
    timelineChart(author.timeline, false),
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
  state.relabel();
  out.replaceChildren(el("span", { class: "path" }, ...collaborationPath.flatMap((a, i) => [i ? " → " : "", link("author", a.id, a.name)])));
}

// -- paper ------------------------------------------------------------------------------------

// Hex colours (sigma's renderer reads hex and rgb(), not hsl()): the oldest year OLD, the newest NEW, between them mixed.
function yearColor(year, lo, hi) {
  if (!year) return OTHER;
  const t = hi > lo ? (year - lo) / (hi - lo) : 1;
  const mix = (i) => Math.round(parseInt(OLD.slice(i, i + 2), 16) * (1 - t) + parseInt(NEW.slice(i, i + 2), 16) * t);
  return `#${[1, 3, 5].map((i) => mix(i).toString(16).padStart(2, "0")).join("")}`;
}

async function paperView(id) {
  const { paper } = await api(PAPER, { id });
  if (!paper) throw new Error(`No paper ${id}`);
  document.title = `${paper.label} — kg`;
  state.view = { kind: "paper", id: paper.id };
  const graph = new Graph({ type: "undirected" });
  const add = (p) => { if (!graph.hasNode(p.id)) graph.addNode(p.id, { label: shorten(p.label), year: p.year, fullLabel: p.label }); };
  const link2 = (a, b, shared) => {
    if (a !== b && !graph.hasEdge(a, b)) graph.addEdge(a, b, { shared: shared.map((c) => c.name).join(", "), size: 1.5 });
  };
  add(paper);
  for (const r of paper.related) {
    add(r.paper);
    link2(paper.id, r.paper.id, r.sharedConcepts);
    for (const r2 of r.paper.related) { add(r2.paper); link2(r.paper.id, r2.paper.id, r2.sharedConcepts); }
  }
  // Citations kg knows, both ways: drawn darker, and said on hover (an edge can also share concepts).
  const cited = paper.references.filter((r) => r.paper).map((r) => r.paper);
  const cite = (from, to) => {
    add(from); add(to);
    const edge = graph.hasEdge(from.id, to.id) ? graph.edge(from.id, to.id) : graph.addEdge(from.id, to.id, { shared: "", size: 1.5 });
    graph.mergeEdgeAttributes(edge, { cites: `${shorten(from.label)} cites ${shorten(to.label)}`, color: CITES, size: 2 });
  };
  for (const p of cited) cite(paper, p);
  for (const p of paper.citedBy) cite(p, paper);
  const years = graph.mapNodes((n, a) => a.year).filter(Boolean);
  const lo = Math.min(...years), hi = Math.max(...years);
  graph.forEachNode((n, a) => graph.mergeNodeAttributes(n, {
    size: n === paper.id ? 14 : 7, color: yearColor(a.year, lo, hi), zIndex: n === paper.id ? 2 : 0,
  }));
  draw(graph, {
    onClick: (node) => navigate(href("paper", node)), tooltip: (n, a) => `${a.fullLabel}${a.year ? ` (${a.year})` : ""}`,
    edgeTip: (edge, a) => [a.cites, a.shared ? `Shared: ${a.shared}` : ""].filter(Boolean).join(" · "), importance: (n, a) => (n === paper.id ? 1e9 : a.size + graph.degree(n) / 100),
  });
  const yearKeys = lo === hi ? [[yearColor(lo, lo, hi), String(lo)]] : [[yearColor(lo, lo, hi), String(lo)], [yearColor(hi, lo, hi), String(hi)]];
  const citing = cited.length || paper.citedBy.length;
  legend("Year", [...(years.length ? yearKeys : []), [OTHER, "year unknown"]],
    `Edges: concepts two papers share${citing ? "; dark: one cites the other" : ""} (hover one).`);
  const stubs = paper.references.filter((r) => !r.paper);
  const key = new Set(paper.concepts.map((c) => c.id));
  const alsoNamed = paper.named.filter((c) => !key.has(c.id)); // named below its key concepts (minor mentions)

  $("panel").replaceChildren(
    views(paper.id, "related"),
    el("h1", {}, paper.title || paper.label),
    el("p", { class: "muted" }, [paper.venue, paper.year, paper.citations != null ? `${paper.citations} citations` : ""].filter(Boolean).join(" · ")),
    el("p", {}, ...paper.authors.flatMap((a, i) => [i ? ", " : "", link("author", a.id, a.name)])),
    paper.areas.length ? el("p", { class: "muted" }, paper.areas.map((a) => a.path).join("; ")) : "",
    el("h2", {}, "Abstract"),
    highlighted(paper.abstract, paper.named),
    el("h2", {}, "Key concepts"),
    list(paper.concepts.map((c) => link("concept", c.id, c.name))),
    ...(alsoNamed.length ? [el("h2", {}, "Also named"),
      el("p", { id: "also-named" }, ...alsoNamed.flatMap((c, i) => [i ? ", " : "", link("concept", c.id, c.name)]))] : []),
    el("h2", {}, "Related papers"),
    list(paper.related.map((r) => [link("paper", r.paper.id, r.paper.label), el("span", { class: "muted" }, ` — ${[
      r.sharedConcepts.map((c) => c.name).join(", "), ...r.reasons.filter((why) => !why.startsWith("both about "))].join("; ")}`)])),
    ...(paper.references.length ? [el("h2", {}, `References (${paper.references.length})`),
      list([...cited.map((p) => link("paper", p.id, p.label)), ...stubs.map((r) => el("span", { class: "muted" }, `${r.key} (not in kg yet)`))])] : []),
    ...(paper.citedBy.length ? [el("h2", {}, "Cited by"), list(paper.citedBy.map((p) => link("paper", p.id, p.label)))] : []),
    ...(paper.citationLinks.length ? [el("h2", {}, "Linked through citations"), list(paper.citationLinks.map((l) => [
      link("paper", l.paper.id, l.paper.label), el("span", { class: "muted" }, ` — ${citationReasons(l)}`)]))] : []),
  );
}

// The paper page's two views: its related papers (concepts shared), and its citations.
function views(id, current) {
  const tab = (name, text, path) => (name === current ? el("strong", { class: "tab" }, text) : el("a", { href: path, "data-nav": "", class: "tab" }, text));
  return el("p", { class: "tabs", id: "views" }, tab("related", "Related papers", href("paper", id)), " · ",
    tab("citations", "Citations", `${href("paper", id)}?view=citations`));
}

// Where a work kg does not have yet can be read: its DOI or arXiv id, as a link out (null for a key of another kind).
function outLink(key) {
  const [scheme, ...rest] = key.split(":");
  const value = rest.join(":");
  if (scheme === "doi") return `https://doi.org/${value}`;
  if (scheme === "arxiv") return `https://arxiv.org/abs/${value}`;
  return null;
}

// -- a paper's citations: x by year, size by citations within the store --------------------------
async function citationView(id) {
  const { paper } = await api(CITATIONS, { id });
  if (!paper) throw new Error(`No paper ${id}`);
  document.title = `${paper.label} — citations — kg`;
  state.view = { kind: "citations", id: paper.id };
  const graph = new Graph({ type: "directed" });
  const cited = paper.references.filter((r) => r.paper).map((r) => r.paper);
  const stubs = paper.references.filter((r) => !r.paper);
  const years = [paper, ...cited, ...paper.citedBy, ...paper.citationLinks.map((l) => l.paper)].map((p) => p.year).filter(Boolean);
  const lo = years.length ? Math.min(...years) : 0, hi = years.length ? Math.max(...years) : 0;
  const most = Math.max(1, paper.citedByCount, ...[...cited, ...paper.citedBy, ...paper.citationLinks.map((l) => l.paper)].map((p) => p.citedByCount));
  const unknown = lo - Math.max(1, Math.round((hi - lo) / 6)); // works without a year (stubs too) stand left of the oldest
  // References above the paper (older: upper left), citing papers below it (newer: lower right), works kg lacks
  // above the references: the legend's lower-left corner covers none of them.
  const bands = { cites: 1, linked: 0, citedBy: -1, stub: 2 };
  const kindColor = { 1: CITES, 0: COUPLED, [-1]: CITED_BY, 2: STUB }; // x is the year, so colour says the kind
  const rows = new Map(); // how many nodes each (band, year) column holds so far: stacked, never on one another
  const place = (p, band) => {
    const x = p.year || unknown;
    const n = rows.get(`${band}:${x}`) || 0;
    rows.set(`${band}:${x}`, n + 1);
    return { x: x * 40, y: band * 60 + (n % 2 ? -1 : 1) * Math.ceil(n / 2) * 14 }; // sigma's y points up
  };
  const add = (p, band, extra = {}) => {
    if (graph.hasNode(p.id)) return;
    graph.addNode(p.id, {
      label: shorten(p.label), fullLabel: p.label, year: p.year, citedByCount: p.citedByCount ?? 0, band,
      size: 4 + 10 * Math.sqrt((p.citedByCount ?? 0) / most), color: kindColor[band], ...place(p, band), ...extra,
    });
  };
  const edge = (from, to, why, color) => {
    if (from !== to && !graph.hasEdge(from, to) && !graph.hasEdge(to, from)) graph.addEdge(from, to, { why, color, size: 1.5 }); // one link a pair, its strongest kind
  };
  add(paper, 0, { size: 14, zIndex: 2, highlighted: true, color: THIS_PAPER });
  for (const p of cited) { add(p, bands.cites); edge(paper.id, p.id, `${shorten(paper.label)} cites it`, CITES); }
  for (const p of paper.citedBy) { add(p, bands.citedBy); edge(p.id, paper.id, `it cites ${shorten(paper.label)}`, CITED_BY); }
  for (const l of paper.citationLinks) {
    const words = [l.bothCite.length ? `both cite ${l.bothCite.length}` : "", l.citedTogetherBy.length ? `cited together ${plural(l.citedTogetherBy.length, "time")}` : ""].filter(Boolean).join("; ");
    add(l.paper, bands.linked);
    edge(paper.id, l.paper.id, words, COUPLED);
  }
  for (const r of stubs.slice(0, 20)) {
    const node = `ref:${r.key}`;
    graph.addNode(node, { label: shorten(r.key), fullLabel: `${r.key}: not in kg yet`, year: null, citedByCount: 0, band: bands.stub,
      size: 4, color: STUB, stub: r.key, ...place({ year: null }, bands.stub) });
    edge(paper.id, node, `${shorten(paper.label)} cites it (not in kg yet)`, STUB);
  }
  draw(graph, {
    placed: true,
    onClick: (node) => { if (!graph.getNodeAttribute(node, "stub")) navigate(`${href("paper", node)}?view=citations`); },
    tooltip: (n, a) => `${a.fullLabel}${a.year ? ` (${a.year})` : ""}${a.stub ? "" : ` · cited by ${plural(a.citedByCount, "paper")} here`}`,
    edgeTip: (e, a) => a.why, importance: (n, a) => (n === paper.id ? 1e9 : a.size),
  });
  legend("Citations", [[THIS_PAPER, "this paper"], [CITES, "cites (above)"], [CITED_BY, "cited by (below)"], [COUPLED, "cited with it, or citing what it cites"], [STUB, "not in kg yet"]],
    `x: year${lo ? ` (${lo}–${hi})` : ""}; size: papers here citing it. Hover a link for why it is there.`);
  const rows2 = (items, make) => (items.length ? list(items.map(make)) : el("p", { class: "muted" }, "None that kg knows."));
  $("panel").replaceChildren(
    views(paper.id, "citations"),
    el("h1", {}, paper.title || paper.label),
    el("p", { class: "muted" }, `${paper.year || "year unknown"} · cited by ${plural(paper.citedByCount, "paper")} in kg`),
    el("h2", {}, `Cites (${paper.references.length})`),
    rows2([...cited.map((p) => [link("paper", p.id, p.label), el("span", { class: "muted" }, ` (${p.year || "?"})`)]),
      ...stubs.map((r) => { const url = outLink(r.key); return [url ? el("a", { href: url, rel: "noopener", target: "_blank", class: "stub" }, r.key) : el("span", { class: "stub" }, r.key), el("span", { class: "muted" }, " — not in kg yet")]; })], (x) => x),
    el("h2", {}, `Cited by (${paper.citedByCount})`),
    rows2(paper.citedBy, (p) => [link("paper", p.id, p.label), el("span", { class: "muted" }, ` (${p.year || "?"})`)]),
    el("h2", {}, "Cited with it, or citing what it cites"),
    rows2(paper.citationLinks, (l) => [link("paper", l.paper.id, l.paper.label), el("span", { class: "muted" }, ` — ${[
      l.bothCite.length ? `both cite ${l.bothCite.length}` : "", l.citedTogetherBy.length ? `cited together ${plural(l.citedTogetherBy.length, "time")}` : ""].filter(Boolean).join("; ")}`)]),
  );
}

// Why two papers are linked through citations, in words: what both cite, and who cites both.
function citationReasons(l) {
  const names = (items) => items.slice(0, 3).join(", ") + (items.length > 3 ? ` and ${items.length - 3} more` : "");
  return [l.bothCite.length ? `both cite ${names(l.bothCite.map((r) => (r.paper ? r.paper.label : r.key)))}` : "",
    l.citedTogetherBy.length ? `cited together by ${names(l.citedTogetherBy.map((p) => p.label))}` : ""].filter(Boolean).join("; ");
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
  const { concept } = await api(CONCEPT, { name: id });
  if (!concept) throw new Error(`No concept ${id}`);
  document.title = `${concept.name} — kg`;
  state.view = { kind: "concept", id: concept.id };
  // Its neighbourhood, drawn as the field map is: the related concepts, and how they relate to each other.
  const graph = new Graph({ type: "undirected" });
  const most = Math.max(concept.paperCount, ...concept.related.map((r) => r.concept.paperCount));
  const size = (n) => 3 + 14 * Math.sqrt(n / most);
  graph.addNode(concept.id, { label: concept.name, papers: concept.paperCount, size: size(concept.paperCount), color: PATH, zIndex: 2 });
  for (const r of concept.related) graph.addNode(r.concept.id, { label: r.concept.name, papers: r.concept.paperCount, size: size(r.concept.paperCount), color: PALETTE[0] });
  const join = (a, b, n) => { if (a !== b && graph.hasNode(b) && !graph.hasEdge(a, b)) graph.addEdge(a, b, { weight: n, size: 0.5 + Math.log2(1 + n) / 2 }); };
  for (const r of concept.related) {
    join(concept.id, r.concept.id, r.sharedPapers);
    for (const r2 of r.concept.related) join(r.concept.id, r2.concept.id, r2.sharedPapers);
  }
  draw(graph, {
    onClick: (node) => navigate(href("concept", node)), tooltip: (n, a) => `${a.label}: ${plural(a.papers, "paper")}`,
    edgeTip: (edge, a) => `${plural(a.weight, "paper")} share both`, importance: (n, a) => (n === concept.id ? 1e9 : a.papers),
  });
  legend("Neighbourhood", [[PATH, concept.name], [PALETTE[0], "concepts on the same papers"]], "Size: papers. Links: papers sharing both.");
  $("panel").replaceChildren(
    el("h1", {}, concept.name),
    el("p", { class: "muted" }, plural(concept.paperCount, "paper")),
    concept.aliases.length ? el("p", {}, "Also: ", concept.aliases.join(", ")) : "",
    concept.broader ? el("p", {}, "Broader: ", link("concept", concept.broader.id, concept.broader.name)) : "",
    el("h2", {}, "Papers per year"),
    timelineChart(concept.timeline, true),
    el("h2", {}, `Papers (${concept.papers.totalCount}), most about it first`),
    el("ol", { id: "concept-papers" }, concept.papers.edges.map(({ node }) => el("li", {}, link("paper", node.id, node.label), node.year ? ` (${node.year})` : ""))),
    el("h2", {}, "Related concepts"),
    list(concept.related.map((r) => [link("concept", r.concept.id, r.concept.name), ` (${r.sharedPapers})`])),
  );
}

// Papers per year as bars (Observable Plot, bundled), each with its year, papers and share in its title.
function timelineChart(years, withShare) {
  if (!years.length) return el("p", { class: "muted" }, "No years known.");
  const title = (d) => `${d.year}: ${plural(d.papers, "paper")}${withShare && d.share != null ? ` (${(100 * d.share).toFixed(2)}% of the year's)` : ""}`;
  const span = years[years.length - 1].year - years[0].year;
  const chart = Plot.plot({
    width: 360, height: 130, marginLeft: 36, marginBottom: 24,
    x: { label: null, tickFormat: "d", ticks: Math.min(span + 1, 6), domain: [years[0].year, years[years.length - 1].year + 1] },
    y: { label: "papers", grid: true, ticks: Math.min(4, Math.max(...years.map((d) => d.papers))), tickFormat: "d" },
    marks: [Plot.rectY(years, { x1: "year", x2: (d) => d.year + 1, y: "papers", fill: OLD, inset: 0.5, title }), Plot.ruleY([0])],
  });
  chart.setAttribute("id", "timeline");
  chart.setAttribute("aria-label", years.map(title).join("; "));
  state.chart = years;
  return chart;
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
    if (suggest.length || prefix.length < 3) { if (mine === asked) showSuggestions(suggest); return; }
    // nothing begins so: the people whose names are nearest ("did you mean"), as `kg author` offers them
    const { people } = await api(`query N($n: String!) { people(name: $n) { author { id name } paperCount bearsName hint } }`, { n: prefix });
    if (mine === asked) {
      showSuggestions(people.slice(0, 5).map((p) => ({
        kind: "AUTHOR", id: p.author.id, label: p.author.name, papers: p.paperCount, hint: `${p.bearsName ? "" : "did you mean? "}${p.hint}`,
      })));
    }
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
