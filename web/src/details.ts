// The details panel's content for a pod or a node. Scenario text is
// untrusted: everything reaches the DOM through textContent (el) only.
import type { Attempt, DetailsReply, Node, Pod, PodStorage, SpreadConstraint, TraceEvent } from "./bridge";
import { searchLines } from "./search-text";
import { fmtTime } from "./timeline";
import { fill as fillTerms } from "./glossary";
import { filterTable, scoreTable } from "./explain-table";
import { el } from "./dom";
import { t as tr } from "./i18n";

export { el };

// withTerms is el with the glossary's terms in text linked to their entries.
function withTerms(tag: string, cls: string | undefined, text: string): HTMLElement {
  const e = el(tag, cls);
  fillTerms(e, text);
  return e;
}

export function cpu(m: number): string {
  return m % 1000 === 0 ? String(m / 1000) : `${m}m`;
}

export function mem(b: number): string {
  const units = ["Ki", "Mi", "Gi", "Ti"];
  if (b < 1024) return String(b);
  let v = b, u = "";
  for (const s of units) {
    if (v < 1024) break;
    v /= 1024;
    u = s;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)}${u}`;
}

function kv(rows: [string, string][]): HTMLElement {
  const t = el("dl", "kv");
  for (const [k, v] of rows) t.append(el("dt", undefined, k), el("dd", undefined, v));
  return t;
}

// Hooks lets the panel link to other objects and to points in time.
export interface Hooks {
  selectPod(key: string): void;
  jump(seq: number): void;
  // attempt shows the pod's scheduling cycle number n (1-based).
  attempt(n: number): void;
}

function status(p: Pod, now: number): string {
  if (p.ghost || (!p.node && p.queue)) {
    const q = p.queue ?? "activeQ";
    if (q === "backoffQ" && p.backoffUntil !== undefined) return tr("details.pendingBackoff", { left: fmtTime(Math.max(0, p.backoffUntil - now)) });
    return tr("textview.pendingIn", { queue: q });
  }
  if (!p.node) return tr("textview.pending");
  if (p.phase === "Succeeded" || p.phase === "Failed") return tr("details.finished", { phase: p.phase, node: p.node });
  if (p.termination) {
    const t = p.termination;
    return tr(t.eviction ? "details.evicting" : "details.terminating",
      { node: p.node, stage: t.stage, next: t.next === "gone" ? tr("details.gone") : t.next, left: fmtTime(Math.max(0, t.stageEnds - now)) });
  }
  return tr("details.running", { node: p.node });
}

function podDetails(r: DetailsReply, now: number, h: Hooks): HTMLElement[] {
  const p = r.pod!;
  const rows: [string, string][] = [
    [tr("details.namespace"), p.namespace],
    [tr("details.status"), status(p, now)],
    [tr("textview.priority"), `${p.priority}${p.priorityClass ? ` (${p.priorityClass})` : ""}`],
    [tr("details.nominatedNode"), p.nominatedNode || tr("details.none")],
    [tr("details.requests"), tr("details.requestsValue", { cpu: cpu(p.requests.milliCPU), memory: mem(p.requests.memory) })],
  ];
  if (p.reason) rows.push([tr("details.lastReason"), p.reason]);
  const out: HTMLElement[] = [el("div", "kind", tr("textview.pod")), el("h2", "name", p.name), kv(rows)];
  if (r.attempt) out.push(...attempt(r.attempt, h));
  else if (r.explainError) out.push(el("h3", undefined, tr("details.lastAttempt")), el("p", "muted", r.explainError));
  if (r.storage) out.push(...storage(r.storage));
  if (r.spread?.length) out.push(...spread(r.spread));
  else if (r.spreadError) out.push(el("h3", undefined, tr("details.spread")), el("p", "muted", r.spreadError));
  if (r.events?.length) {
    out.push(el("h3", undefined, tr("details.events")));
    const ul = el("ul", "events");
    for (const e of r.events) ul.append(eventItem(e, h));
    out.push(ul);
  }
  return out;
}

function eventItem(e: TraceEvent, h: Hooks): HTMLElement {
  const li = el("li");
  const b = el("button", "link t", `t=${fmtTime(e.t)}`);
  b.title = tr("details.jump");
  b.addEventListener("click", () => h.jump(e.seq));
  li.append(b, el("strong", undefined, e.kind), withTerms("span", undefined, `${e.node ? " → " + e.node : ""}: ${e.reason}`));
  return li;
}

function attempt(a: Attempt, h: Hooks): HTMLElement[] {
  const ex = a.explanation;
  const title = a.seq < 0 ? tr("details.cycleAtZero")
    : tr(a.number === a.of ? "details.lastAttemptOf" : "details.attemptOf", { n: a.number, of: a.of, t: fmtTime(a.t) });
  const out: HTMLElement[] = [el("h3", undefined, title)];
  if (a.seq >= 0 && a.of > 1) {
    // Each attempt is explained against the cluster as that cycle saw it.
    const nav = el("div", "attempts");
    for (const [label, n] of [[tr("details.earlier"), a.number - 1], [tr("details.later"), a.number + 1]] as [string, number][]) {
      const b = el("button", "link", label) as HTMLButtonElement;
      b.disabled = n < 1 || n > a.of;
      b.addEventListener("click", () => h.attempt(n));
      nav.append(b, document.createTextNode(" "));
    }
    out.push(nav);
  }
  if (ex.message) {
    out.push(el("div", "muted", "FailedScheduling"), withTerms("div", "message", ex.message));
  }
  const search = searchLines(ex);
  if (search.length) {
    out.push(el("h3", undefined, tr(ex.search ? "details.nodeSearch" : "details.tie")));
    for (const line of search) out.push(el("p", "search", line));
  }
  out.push(...filterTable(ex, withTerms), ...scoreTable(ex, 50, withTerms));
  const pre = ex.preemption;
  if (pre) {
    out.push(el("h3", undefined, tr("details.candidates")));
    const names = Object.keys(pre.candidates ?? {}).sort();
    if (names.length === 0) out.push(el("p", "muted", tr("details.noCandidates")));
    else {
      const t = el("table", "explain");
      const hr = el("tr");
      hr.append(el("th", undefined, tr("explain.node")), el("th", undefined, tr("details.victims")), el("th", undefined, tr("details.pdbViolations")));
      t.append(hr);
      const nominated = new Set(pre.nominated ?? []);
      for (const n of names) {
        const c = pre.candidates[n];
        const tr = el("tr", nominated.has(n) ? "fit chosen" : "");
        tr.append(el("td", undefined, `${nominated.has(n) ? "★\u00a0" : ""}${n}`));
        const vt = el("td");
        for (const v of c.victims ?? []) {
          const b = el("button", "link", v);
          b.addEventListener("click", () => h.selectPod(v));
          vt.append(b, document.createTextNode(" "));
        }
        tr.append(vt, el("td", undefined, String(c.pdbViolations)));
        t.append(tr);
      }
      out.push(t);
      if (pre.criterion) out.push(el("p", "criterion", tr("details.decidedBy", { criterion: pre.criterion })));
    }
  }
  return out;
}

// storage lists the pod's claims as the engine reports them: bound volume,
// its node affinity and the zones it allows, or what an unbound claim waits for.
function storage(s: PodStorage): HTMLElement[] {
  const out: HTMLElement[] = [el("h3", undefined, tr("details.volumes"))];
  if (s.zones?.length) out.push(el("p", undefined, tr("details.pinned", { zones: s.zones.join(tr("details.or")) })));
  const rows: [string, string][] = [];
  for (const c of s.claims ?? []) {
    let v: string;
    if (c.missing) v = tr("details.claimNote", { claim: c.claim, note: c.note ?? tr("details.notFound") });
    else {
      // Phases, sizes, access and binding modes are Kubernetes' own words.
      const info = [c.phase ?? "Pending", c.size, ...(c.accessModes ?? [])].filter((x) => x).join(", ");
      const parts = [tr("details.claim", { claim: c.claim, info })];
      if (c.class) parts.push(tr("details.class", { class: c.class }) + (c.bindingMode ? ` (${c.bindingMode})` : ""));
      if (c.pv) parts.push(tr("details.volume", { pv: c.pv }) + (c.pinned ? ": " + c.pinned : ""));
      if (c.note) parts.push(c.note);
      v = parts.join(tr("textview.sep"));
    }
    rows.push([c.volume, v]);
  }
  for (const o of s.other ?? []) {
    const i = o.indexOf(": ");
    rows.push([o.slice(0, i), o.slice(i + 2)]);
  }
  if (rows.length) out.push(kv(rows));
  return out;
}

function spread(list: SpreadConstraint[]): HTMLElement[] {
  const out: HTMLElement[] = [el("h3", undefined, tr("details.spread"))];
  for (const c of list) {
    out.push(el("div", "muted", tr(c.default ? "details.defaultConstraint" : "details.constraint", { key: c.key, maxSkew: c.maxSkew, min: c.min })));
    const t = el("table", "explain");
    const hr = el("tr");
    hr.append(el("th", undefined, tr("details.domain")), el("th", undefined, tr("details.matching")), el("th", undefined, tr("details.skewIfPlaced")));
    t.append(hr);
    for (const d of c.domains ?? []) {
      const tr = el("tr", d.skew > c.maxSkew ? "nofit" : "fit");
      tr.append(el("td", undefined, d.name), el("td", undefined, String(d.count)), el("td", undefined, String(d.skew)));
      t.append(tr);
    }
    out.push(t);
  }
  return out;
}

function nodeDetails(n: Node, h: Hooks): HTMLElement[] {
  const pods = n.pods ?? [];
  const req = n.used ?? pods.reduce((a, p) => ({ milliCPU: a.milliCPU + p.requests.milliCPU, memory: a.memory + p.requests.memory, pods: a.pods + 1 }), { milliCPU: 0, memory: 0, pods: 0 });
  const rows: [string, string][] = [
    [tr("textview.zone"), n.zone || tr("details.noZoneLabel")],
    [tr("details.cpu"), tr("details.requestedOf", { used: cpu(req.milliCPU), total: cpu(n.allocatable.milliCPU) })],
    [tr("details.memory"), tr("details.requestedOf", { used: mem(req.memory), total: mem(n.allocatable.memory) })],
    [tr("details.pods"), tr("details.of", { used: req.pods, total: n.allocatable.pods })],
  ];
  if (n.unschedulable) rows.push([tr("details.cordoned"), tr("details.cordonedYes")]);
  for (const t of n.taints ?? []) rows.push([tr("details.taint"), `${t.key}${t.value ? "=" + t.value : ""}:${t.effect}`]);
  for (const g of n.ghosts ?? []) rows.push([tr("details.nominated"), tr("details.nominatedPod", { pod: `${g.namespace}/${g.name}`, priority: g.priority })]);
  const out = [el("div", "kind", tr("textview.node")), el("h2", "name", n.name), kv(rows)];
  if (pods.length > 0) {
    out.push(el("h3", undefined, tr("details.pods")));
    const ul = el("ul", "pods");
    for (const p of pods) {
      const li = el("li");
      const a = el("button", "link", `${p.namespace}/${p.name}`);
      a.addEventListener("click", () => h.selectPod(`${p.namespace}/${p.name}`));
      const extra = p.termination ? `, ${p.termination.stage}` : p.phase === "Succeeded" || p.phase === "Failed" ? ", " + tr("details.notCounted", { phase: p.phase }) : "";
      li.append(a, el("span", "muted", " " + tr("details.requestsValue", { cpu: cpu(p.requests.milliCPU), memory: mem(p.requests.memory) }) + extra));
      ul.append(li);
    }
    out.push(ul);
  }
  return out;
}

export function renderDetails(r: DetailsReply, now: number, h: Hooks): HTMLElement[] {
  if (r.pod) return podDetails(r, now, h);
  if (r.node) return nodeDetails(r.node, h);
  return [];
}
