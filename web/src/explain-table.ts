// The details panel's tables of one scheduling cycle (the engine's
// explanation, shown as it is): every node's filter result, sortable and
// filterable, nodes in natural order (node-2 before node-10); and the
// score plugins by feasible node. Nothing here computes a score.
import type { Explanation, NodeResult } from "./bridge";
import { el } from "./dom";
import { t } from "./i18n";

const natural = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" }).compare;

type SortKey = "node" | "result" | "total";

// The table's filter and sort outlive the panel's re-rendering as the
// playhead moves.
const kept = { search: "", which: "", sort: "result" as SortKey, focused: false };

// compare orders node results for a sort key: "result" puts feasible
// nodes first (highest total first), then the rejected ones by plugin;
// ties in natural name order.
export function compare(key: SortKey, a: NodeResult, b: NodeResult): number {
  if (key === "node") return natural(a.name, b.name);
  if (key === "total") return (b.total ?? -Infinity) - (a.total ?? -Infinity) || natural(a.name, b.name);
  if (a.feasible !== b.feasible) return a.feasible ? -1 : 1;
  if (a.feasible) return (b.total ?? 0) - (a.total ?? 0) || natural(a.name, b.name);
  return natural(a.plugin ?? "", b.plugin ?? "") || natural(a.name, b.name);
}

function header(text: string): HTMLElement {
  const th = el("th", undefined, text);
  th.setAttribute("scope", "col");
  return th;
}

// filterTable is every node's filter result with a text filter, a plugin
// filter and sortable columns.
// text renders a reason; the details panel passes one that links glossary terms.
export function filterTable(ex: Explanation, text: (tag: string, cls: string | undefined, s: string) => HTMLElement = el): HTMLElement[] {
  const nodes = ex.nodes ?? [];
  const chosen = new Set(ex.selected ?? []);
  const plugins = [...new Set(nodes.filter((n) => !n.feasible && n.plugin).map((n) => n.plugin!))].sort(natural);
  const tools = el("div", "explain-tools");
  const search = document.createElement("input");
  search.type = "search";
  search.placeholder = t("explain.filterPlaceholder");
  search.setAttribute("aria-label", t("explain.filterLabel"));
  const which = document.createElement("select");
  which.setAttribute("aria-label", t("explain.showLabel"));
  for (const [value, label] of [["", t("explain.allNodes")], ["feasible", t("explain.feasibleOption")], ...plugins.map((p) => [p, t("explain.rejectedBy", { plugin: p })])]) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    which.append(o);
  }
  const count = el("span", "muted");
  count.setAttribute("role", "status");
  tools.append(search, which, count);

  const table = el("table", "explain") as HTMLTableElement;
  const head = el("tr");
  const body = el("tbody");
  search.value = kept.search;
  let sort: SortKey = kept.sort;
  const sorters: [SortKey, string][] = [["node", t("explain.node")], ["result", t("explain.filter")], ["total", t("explain.score")]];
  const ths = sorters.map(([key, label]) => {
    const th = header("");
    const b = el("button", "link sort", label) as HTMLButtonElement;
    b.type = "button";
    b.addEventListener("click", () => {
      sort = kept.sort = key;
      render();
    });
    th.append(b);
    head.append(th);
    return [key, th] as const;
  });
  const thead = el("thead");
  thead.append(head);
  table.append(thead, body);

  const rowText = (n: NodeResult) => `${n.name} ${n.feasible ? t("explain.feasible") : ""} ${n.plugin ?? ""} ${(n.reasons ?? []).join(" ")} ${n.code ?? ""}`.toLowerCase();
  function render(): void {
    for (const [key, th] of ths) th.setAttribute("aria-sort", key === sort ? (key === "node" ? "ascending" : "descending") : "none");
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const only = which.value;
    const shown = nodes
      .filter((n) => only === "" || (only === "feasible" ? n.feasible : !n.feasible && n.plugin === only))
      .filter((n) => words.every((w) => rowText(n).includes(w)))
      .sort((a, b) => compare(sort, a, b));
    const rows = shown.map((n) => {
      const tr = el("tr", n.feasible ? "fit" : "nofit");
      if (chosen.has(n.name)) tr.classList.add("chosen");
      // The star stays with the name it marks (a no-break space).
      const name = el("th", undefined, `${chosen.has(n.name) ? "★\u00a0" : ""}${n.name}`);
      name.setAttribute("scope", "row");
      const result = el("td");
      const score = el("td");
      if (n.feasible) {
        result.textContent = t("explain.feasible");
        score.textContent = String(n.total ?? 0);
      } else {
        result.append(text("div", "reason", `${n.plugin ?? ""}: ${(n.reasons ?? []).join("; ")}`));
        if (n.code) {
          const code = el("div", "scores");
          code.append(...camelBreaks(n.code)); // Unschedulable|And|Unresolvable
          result.append(code);
        }
      }
      tr.append(name, result, score);
      return tr;
    });
    body.replaceChildren(...rows);
    count.textContent = t("explain.nodeCount", { shown: shown.length, n: nodes.length });
  }
  if ([...which.options].some((o) => o.value === kept.which)) which.value = kept.which;
  search.addEventListener("input", () => {
    kept.search = search.value;
    render();
  });
  search.addEventListener("focus", () => { kept.focused = true; });
  search.addEventListener("blur", () => { kept.focused = false; });
  which.addEventListener("change", () => {
    kept.which = which.value;
    render();
  });
  render();
  if (kept.focused) queueMicrotask(() => search.focus());
  return [tools, table, ...skippedFold(ex.skipped?.filter, "filter", text)];
}

// ScoreView is which of the engine's three scores the scores table shows.
export type ScoreView = "raw" | "normalized" | "weighted";
const views: ScoreView[] = ["raw", "normalized", "weighted"];

// scoreOf is a node's score of plugin at one step, as the engine reports
// it (undefined when the plugin has none there).
export function scoreOf(n: NodeResult, view: ScoreView, plugin: string): number | undefined {
  const m = view === "raw" ? n.raw : view === "weighted" ? n.weighted : n.scores;
  return m?.[plugin];
}

// ScoreSort is the scores table's order: by node name, by total, or by
// one plugin's shown score.
export type ScoreSort = "node" | "total" | `plugin:${string}`;

// compareScores orders feasible nodes for the scores table: highest first
// for totals and plugin scores, ties (and the node column) in natural name
// order.
export function compareScores(key: ScoreSort, view: ScoreView, a: NodeResult, b: NodeResult): number {
  if (key === "node") return natural(a.name, b.name);
  if (key === "total") return compare("total", a, b);
  const p = key.slice("plugin:".length);
  return (scoreOf(b, view, p) ?? -Infinity) - (scoreOf(a, view, p) ?? -Infinity) || natural(a.name, b.name);
}

// The scores table's view and order, like the filter table's, outlive
// re-rendering.
let groups = 0;
const keptScores = { view: "normalized" as ScoreView, sort: "total" as ScoreSort };
// Whether each fold was left open.
const keptFolds = { filter: false, score: false };

// camelBreaks lets a long plugin name wrap at its capitals in a narrow
// column (NodeResources|Balanced|Allocation) without changing its text.
function camelBreaks(name: string): (string | HTMLElement)[] {
  const out: (string | HTMLElement)[] = [];
  for (const part of name.split(/(?<=[a-z])(?=[A-Z])/)) {
    if (out.length) out.push(document.createElement("wbr"));
    out.push(part);
  }
  return out;
}

// skippedFold is the disclosure, closed by default, that names the
// plugins that did nothing for this pod at one extension point (the
// engine's skip sets) and why; nothing when there are none.
export function skippedFold(plugins: string[] | undefined, point: "filter" | "score", text: (tag: string, cls: string | undefined, s: string) => HTMLElement = el): HTMLElement[] {
  if (!plugins?.length) return [];
  const d = el("details", `skipped skipped-${point}`) as HTMLDetailsElement;
  d.open = keptFolds[point];
  d.addEventListener("toggle", () => { keptFolds[point] = d.open; });
  const summary = el("summary", undefined, t("explain.skipped", { n: plugins.length }));
  const list = el("ul", "skipped-list");
  for (const p of plugins) list.append(el("li", undefined, p));
  d.append(summary, text("p", "muted", t(point === "filter" ? "explain.skippedFilter" : "explain.skippedScore")), list);
  return [d];
}

// scoreTable is the plugin x node table of one cycle's scores: a row per
// score plugin (with its weight) and one for the total, a column per
// feasible node, one of the engine's three scores at a time (raw,
// normalized, weighted). A row header orders the node columns by that
// row, highest first; the corner, by node name. At most limit columns;
// the plugins that did nothing for the pod are folded into a disclosure
// below.
export function scoreTable(ex: Explanation, limit = 50, text: (tag: string, cls: string | undefined, s: string) => HTMLElement = el): HTMLElement[] {
  const feasible = (ex.nodes ?? []).filter((n) => n.feasible);
  if (feasible.length === 0) return [];
  const plugins = [...new Set(feasible.flatMap((n) => Object.keys(n.scores ?? {})))].sort(natural);
  if (plugins.length === 0) return [];
  const chosen = new Set(ex.selected ?? []);
  let view = keptScores.view;
  let sort: ScoreSort = keptScores.sort === "node" || keptScores.sort === "total" || plugins.includes(keptScores.sort.slice(7)) ? keptScores.sort : "total";

  // The view: a radio group, so arrow keys move between the three.
  const pick = el("fieldset", "score-view");
  pick.append(el("legend", undefined, t("explain.show")));
  const group = `score-view-${++groups}`;
  for (const v of views) {
    const label = el("label");
    const r = document.createElement("input");
    r.type = "radio";
    r.name = group;
    r.value = v;
    r.checked = v === view;
    r.addEventListener("change", () => {
      if (!r.checked) return;
      view = keptScores.view = v;
      render();
    });
    label.append(r, ` ${t(`explain.view.${v}`)}`);
    pick.append(label);
  }
  // What the cells hold, in words with glossary links.
  let hint = el("p");

  const table = el("table", "explain scores-table");
  const caption = el("caption");
  const head = el("tr");
  const body = el("tbody");
  const sortButton = (key: ScoreSort, content: (string | HTMLElement)[]): HTMLButtonElement => {
    const b = el("button", "link sort") as HTMLButtonElement;
    b.type = "button";
    b.append(...content);
    b.addEventListener("click", () => {
      sort = keptScores.sort = key;
      render();
    });
    return b;
  };
  // The corner heads the plugin column; its button orders nodes by name.
  const corner = header("");
  corner.className = "corner";
  corner.append(sortButton("node", [t("explain.node")]));
  const sorters: [ScoreSort, HTMLElement][] = [["node", corner]];
  const rowHeads = new Map<string, HTMLElement>();
  for (const p of plugins) {
    const th = el("th");
    th.setAttribute("scope", "row");
    const w = el("span", "weight", ` ×${ex.weights?.[p] ?? 1}`);
    w.title = t("explain.weight", { w: ex.weights?.[p] ?? 1 });
    th.append(sortButton(`plugin:${p}`, [...camelBreaks(p), w]));
    rowHeads.set(p, th);
    sorters.push([`plugin:${p}`, th]);
  }
  const totalHead = el("th");
  totalHead.setAttribute("scope", "row");
  totalHead.append(sortButton("total", [t("explain.total")]));
  sorters.push(["total", totalHead]);
  const thead = el("thead");
  thead.append(head);
  table.append(caption, thead, body);
  const more = el("p", "muted");

  function render(): void {
    caption.textContent = t("explain.scoresCaption", { view: t(`explain.view.${view}`).toLowerCase() });
    const h = text("p", "muted score-hint", `${t(`explain.view.${view}.hint`)} ${t("explain.totalIs")}`);
    hint.replaceWith(h);
    hint = h;
    // aria-sort says how the node columns are ordered by this header.
    for (const [key, th] of sorters) th.setAttribute("aria-sort", key === sort ? (key === "node" ? "ascending" : "descending") : "none");
    const nodes = [...feasible].sort((a, b) => compareScores(sort, view, a, b)).slice(0, limit);
    head.replaceChildren(corner, ...nodes.map((n) => {
      const th = header(`${chosen.has(n.name) ? "★ " : ""}${n.name}`);
      if (chosen.has(n.name)) th.className = "chosen";
      return th;
    }));
    const rows = plugins.map((p) => {
      const tr = el("tr");
      tr.append(rowHeads.get(p)!);
      for (const n of nodes) {
        const v = scoreOf(n, view, p);
        tr.append(el("td", chosen.has(n.name) ? "num chosen" : "num", v !== undefined ? String(v) : "–"));
      }
      return tr;
    });
    const total = el("tr", "total");
    total.append(totalHead, ...nodes.map((n) => el("td", chosen.has(n.name) ? "num chosen" : "num", String(n.total ?? 0))));
    body.replaceChildren(...rows, total);
    more.textContent = feasible.length > limit ? t("explain.firstRows", { limit, n: feasible.length }) : "";
    more.hidden = feasible.length <= limit;
  }
  render();
  const scroll = el("div", "table-scroll");
  scroll.append(table);
  return [el("h3", undefined, t("explain.scores")), pick, hint, scroll, more, ...skippedFold(ex.skipped?.score, "score", text)];
}
