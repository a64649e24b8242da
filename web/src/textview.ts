// The text view of the canvas: the shown cluster as a table a screen
// reader can walk (zones, nodes and their pods with phase, priority,
// nominations and termination countdowns) and anyone can search. Its
// content is the session's outline answer (ui/adapt.Outline): the page only
// lays it out, it works nothing out. Also the sentences the canvas's
// keyboard focus is announced with.
import type { Bridge, Outline, OutlineNode, OutlinePod } from "./bridge";
import { el } from "./dom";
import { t } from "./i18n";
import { fmtTime } from "./timeline";

type Select = (kind: "pod" | "node", key: string) => void;

// podNotes are the facts of a pod beyond its name, phase and priority.
function podNotes(p: OutlinePod): string {
  const notes: string[] = [];
  if (!p.node) notes.push(p.queue ? t("textview.pendingIn", { queue: p.queue }) : t("textview.pending"));
  if (p.nominatedNode) notes.push(t("textview.nominatedTo", { node: p.nominatedNode }));
  if (p.terminating) notes.push(t(p.evicted ? "textview.evicted" : "textview.terminating", { what: p.terminating }));
  if (p.reason) notes.push(p.reason);
  return notes.join(t("textview.sep"));
}

function priority(p: OutlinePod): string {
  return `${p.priority}${p.priorityClass ? ` (${p.priorityClass})` : ""}`;
}

function nodeNotes(n: OutlineNode): string {
  const notes = [`cpu ${n.cpu}`, `memory ${n.memory}`, `pods ${n.pods}`];
  if (n.cordoned) notes.push(t("textview.cordoned"));
  if (n.taints?.length) notes.push(t("textview.taints", { taints: n.taints.join(", ") }));
  if (n.nominated?.length) notes.push(t("textview.reserved", { pods: n.nominated.join(", ") }));
  return notes.join(t("textview.sep"));
}

// describe is one sentence about a pod or node of the outline.
export function describe(o: Outline, kind: string, key: string): string {
  if (kind === "pod") {
    const all = [...o.pending, ...o.zones.flatMap((z) => z.nodes.flatMap((n) => n.bound))];
    const p = all.find((x) => x.key === key);
    if (!p) return `Pod ${key}`;
    const first = t(p.node ? "describe.podOn" : "describe.pod", { pod: p.key, node: p.node ?? "", phase: p.phase, priority: priority(p) });
    const more = podNotes(p);
    return more ? t("describe.then", { first, more }) : t("describe.end", { first });
  }
  for (const z of o.zones) {
    const n = z.nodes.find((x) => x.name === key);
    if (n) {
      const first = t(z.name ? "describe.nodeIn" : "describe.node", { node: n.name, zone: z.name, n: n.bound.length }, n.bound.length);
      return t("describe.then", { first, more: nodeNotes(n) });
    }
  }
  return `Node ${key}`;
}

export class TextView {
  private outline: Outline | null = null;
  private shownKey = "";
  private shownSecond = NaN;
  private lastBuild = 0;
  private trailing: number | undefined;
  private readonly title: HTMLElement;
  private readonly caption: HTMLElement;
  private readonly search: HTMLInputElement;
  private readonly count: HTMLElement;
  private readonly body: HTMLTableSectionElement;

  constructor(private readonly root: HTMLElement, private readonly api: () => Bridge | null, private readonly select: Select) {
    this.title = el("h2", undefined, t("textview.title"));
    this.title.id = "textview-title";
    this.caption = el("p", "textview-caption");
    const label = el("label", "textview-search", t("textview.search") + " ");
    this.search = document.createElement("input");
    this.search.type = "search";
    this.search.placeholder = t("textview.searchPlaceholder");
    this.search.addEventListener("input", () => this.filter());
    label.append(this.search);
    this.count = el("span", "muted");
    this.count.setAttribute("role", "status");
    const table = document.createElement("table");
    table.className = "textview-table";
    table.setAttribute("aria-labelledby", "textview-title");
    const head = table.createTHead().insertRow();
    for (const h of ["zone", "node", "pod", "phase", "priority", "details"]) {
      const th = el("th", undefined, t(`textview.${h}`));
      th.setAttribute("scope", "col");
      head.append(th);
    }
    this.body = table.createTBody();
    const tools = el("div", "textview-tools");
    tools.append(label, this.count);
    // The table scrolls in a region of its own, sideways on a phone rather
    // than squeezing its columns to a letter a line; focusable, so that
    // the keyboard scrolls it too.
    const scroll = el("div", "textview-scroll");
    scroll.setAttribute("role", "region");
    scroll.setAttribute("aria-label", t("textview.table"));
    scroll.tabIndex = 0;
    scroll.append(table);
    root.replaceChildren(this.title, this.caption, tools, scroll);
  }

  get open(): boolean {
    return !this.root.hidden;
  }

  setOpen(open: boolean): void {
    this.root.hidden = !open;
    if (open) this.update("", 0, true);
  }

  // fetch reads the session's outline of the shown scene.
  fetch(): Outline | null {
    const api = this.api();
    if (!api) return null;
    const o = JSON.parse(api.outline()) as Outline;
    return o.ok ? o : null;
  }

  // update rebuilds the table when the shown scene (key names it) or the
  // shown second changed, at most five times a second while playing.
  update(key: string, t: number, force = false): void {
    if (!this.open) return;
    const second = Math.floor(t);
    if (!force && key === this.shownKey && second === this.shownSecond) return;
    const now = performance.now();
    clearTimeout(this.trailing);
    if (!force && now - this.lastBuild < 200) {
      this.trailing = window.setTimeout(() => this.update(key, t), 200);
      return;
    }
    const o = this.fetch();
    if (!o) return;
    this.shownKey = key;
    this.shownSecond = second;
    this.lastBuild = now;
    this.render(o);
  }

  private render(o: Outline): void {
    this.outline = o;
    this.title.textContent = t("textview.titleAt", { t: fmtTime(o.t) });
    this.caption.textContent = o.caption;
    const rows: HTMLTableRowElement[] = [];
    const row = (cells: (string | HTMLElement)[], cls: string, header = -1) => {
      const tr = document.createElement("tr");
      tr.className = cls;
      cells.forEach((c, i) => {
        const td = el(i === header ? "th" : "td");
        if (i === header) td.setAttribute("scope", "row");
        td.append(c);
        tr.append(td);
      });
      rows.push(tr);
      return tr;
    };
    const name = (kind: "pod" | "node", key: string) => {
      const b = el("button", "link", key) as HTMLButtonElement;
      b.type = "button";
      b.addEventListener("click", () => this.select(kind, key));
      return b;
    };
    const pod = (zone: string, node: string, p: OutlinePod) =>
      row([zone, node, name("pod", p.key), p.phase, priority(p), podNotes(p)], p.terminating ? "pod terminating" : "pod", 2);
    for (const p of o.pending) pod("", t("textview.queue"), p);
    for (const z of o.zones) {
      const zone = z.name || t("textview.noZone");
      for (const n of z.nodes) {
        row([zone, name("node", n.name), "", n.cordoned ? t("textview.cordoned") : "", "", nodeNotes(n)], "node", 1);
        for (const p of n.bound) pod(zone, n.name, p);
      }
    }
    this.body.replaceChildren(...rows);
    this.filter();
  }

  // filter shows the rows holding every word typed; a node's row stays
  // when one of its pods matches.
  private filter(): void {
    const words = this.search.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    let nodeRow: HTMLTableRowElement | null = null;
    for (const tr of Array.from(this.body.rows)) {
      const hit = words.every((w) => tr.textContent!.toLowerCase().includes(w));
      tr.hidden = !hit;
      if (tr.classList.contains("node")) nodeRow = tr;
      else if (hit && nodeRow) nodeRow.hidden = false;
      if (hit) shown++;
    }
    const n = this.body.rows.length;
    this.count.textContent = words.length ? t("textview.matching", { shown, n }, n) : t("textview.rows", { n }, n);
  }

  // sentence describes a pod or node of the shown scene (fetched now).
  sentence(kind: string, key: string): string {
    const o = this.fetch() ?? this.outline;
    return o ? describe(o, kind, key) : `${kind} ${key}`;
  }
}
