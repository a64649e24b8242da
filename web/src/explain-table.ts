// The details panel's tables of one scheduling cycle (the engine's
// explanation, shown as it is): every node's filter result, sortable and
// filterable, nodes in natural order (node-2 before node-10); and the
// score plugins by feasible node. Nothing here computes a score.
import type { Explanation, NodeResult } from "./bridge";
import { el } from "./dom";

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
  search.placeholder = "node, plugin or reason";
  search.setAttribute("aria-label", "Filter the nodes");
  const which = document.createElement("select");
  which.setAttribute("aria-label", "Show nodes");
  for (const [value, label] of [["", "All nodes"], ["feasible", "Feasible"], ...plugins.map((p) => [p, `Rejected by ${p}`])]) {
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
  const sorters: [SortKey, string][] = [["node", "Node"], ["result", "Filter"], ["total", "Score"]];
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

  const rowText = (n: NodeResult) => `${n.name} ${n.feasible ? "feasible" : ""} ${n.plugin ?? ""} ${(n.reasons ?? []).join(" ")} ${n.code ?? ""}`.toLowerCase();
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
      const name = el("th", undefined, `${chosen.has(n.name) ? "★ " : ""}${n.name}`);
      name.setAttribute("scope", "row");
      const result = el("td");
      const score = el("td");
      if (n.feasible) {
        result.textContent = "feasible";
        score.textContent = String(n.total ?? 0);
      } else {
        result.append(text("div", undefined, `${n.plugin ?? ""}: ${(n.reasons ?? []).join("; ")}`));
        if (n.code) result.append(el("div", "scores", n.code));
      }
      tr.append(name, result, score);
      return tr;
    });
    body.replaceChildren(...rows);
    count.textContent = `${shown.length} of ${nodes.length} nodes`;
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
  return [tools, table];
}

// scoreTable is the score plugins (columns, with their weights) by
// feasible node (rows, highest total first), the values the engine
// reports; at most limit rows.
export function scoreTable(ex: Explanation, limit = 50): HTMLElement[] {
  const feasible = (ex.nodes ?? []).filter((n) => n.feasible).sort((a, b) => compare("total", a, b));
  if (feasible.length === 0) return [];
  const plugins = [...new Set(feasible.flatMap((n) => Object.keys(n.scores ?? {})))].sort(natural);
  if (plugins.length === 0) return [];
  const table = el("table", "explain scores-table");
  const caption = el("caption", undefined, "Scores by plugin (weight in brackets); the total is the engine's weighted sum");
  const thead = el("thead");
  const hr = el("tr");
  hr.append(header("Node"));
  for (const p of plugins) hr.append(header(`${p} (×${ex.weights?.[p] ?? 1})`));
  hr.append(header("Total"));
  thead.append(hr);
  const body = el("tbody");
  const chosen = new Set(ex.selected ?? []);
  for (const n of feasible.slice(0, limit)) {
    const tr = el("tr", chosen.has(n.name) ? "chosen" : "");
    const th = el("th", undefined, `${chosen.has(n.name) ? "★ " : ""}${n.name}`);
    th.setAttribute("scope", "row");
    tr.append(th);
    for (const p of plugins) tr.append(el("td", "num", n.scores?.[p] !== undefined ? String(n.scores[p]) : "–"));
    tr.append(el("td", "num", String(n.total ?? 0)));
    body.append(tr);
  }
  table.append(caption, thead, body);
  const out: HTMLElement[] = [el("h3", undefined, "Scores"), el("div", "table-scroll")];
  out[1].append(table);
  if (feasible.length > limit) out.push(el("p", "muted", `The ${limit} highest of ${feasible.length} feasible nodes.`));
  return out;
}
