// The playground page: a CodeMirror YAML editor beside the stage frame that
// runs the engine and canvas (wasm). Scenario text is untrusted (it arrives
// in links): everything from it reaches the DOM through textContent only.
import { EditorView, basicSetup } from "codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { Compartment, EditorState, Text } from "@codemirror/state";
import { setDiagnostics, type Diagnostic as CMDiagnostic } from "@codemirror/lint";
import { oneDark } from "@codemirror/theme-one-dark";
import type { Bridge, BridgeEvent, DetailsReply, Diagnostic, LoadReply, Node, Pod } from "./bridge";

const DRAFT_KEY = "schedplay.draft";
const THEME_KEY = "schedplay.theme";
const SPLIT_KEY = "schedplay.split";
const DEBOUNCE_MS = 250;

type Theme = "light" | "dark";

// State the end-to-end tests read; nothing else depends on it.
const probe = {
  firstFrameMs: 0, // performance.now() when the first scene was on screen
  loadedGen: 0, // generation of the last good load
  drawnGen: 0, // generation last on screen
  loads: 0, // reloads done
  lastReply: null as LoadReply | null,
  panics: [] as string[],
};
(window as unknown as { __schedplay: typeof probe }).__schedplay = probe;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const statusEl = $("status");
const noticeEl = $("notice");
const noticeText = $("notice-text");
const noticeTitle = $("notice-title");
const loadingEl = $("loading");
const detailsEl = $("details");
const detailsBody = $("details-body");
const frame = $<HTMLIFrameElement>("stage");

let api: Bridge | null = null;
let defaultText = "";
let selection: { kind: "pod" | "node"; key: string } | null = null;
let textReady = false; // the draft or default is in the editor

// ---- theme ----

const themeSlot = new Compartment();
function currentTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}
function applyTheme(t: Theme): void {
  document.documentElement.dataset.theme = t;
  $("theme").textContent = t === "dark" ? "Light" : "Dark";
  localStorage.setItem(THEME_KEY, t);
  editor?.dispatch({ effects: themeSlot.reconfigure(t === "dark" ? oneDark : []) });
  api?.setTheme(t);
  const doc = frame.contentDocument;
  if (doc?.body) doc.body.style.background = t === "dark" ? "#11151c" : "#f4f6fa";
}
const savedTheme = localStorage.getItem(THEME_KEY) as Theme | null;
const initialTheme: Theme = savedTheme ?? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");

// ---- editor ----

let timer: number | undefined;
const editor: EditorView = new EditorView({
  parent: $("editor"),
  state: EditorState.create({
    doc: "",
    extensions: [
      basicSetup,
      yaml(),
      themeSlot.of(initialTheme === "dark" ? oneDark : []),
      EditorView.updateListener.of((u) => {
        if (!u.docChanged) return;
        clearTimeout(timer);
        timer = window.setTimeout(() => {
          const text = u.state.doc.toString();
          localStorage.setItem(DRAFT_KEY, text);
          reload(text);
        }, DEBOUNCE_MS);
      }),
    ],
  }),
});
applyTheme(initialTheme);
$("theme").addEventListener("click", () => applyTheme(currentTheme() === "dark" ? "light" : "dark"));

function setText(text: string): void {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}

// toCM places a diagnostic at its line and column, clamped to the document.
function toCM(doc: Text, d: Diagnostic): CMDiagnostic {
  const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
  const from = Math.min(line.from + Math.max(d.col - 1, 0), line.to);
  const to = from < line.to ? line.to : from;
  let message = d.msg;
  if (d.field) message = `${d.field}: ${message}`;
  if (d.object) message = `${d.object}: ${message}`;
  if (d.hint) message += ` (${d.hint})`;
  return { from, to, severity: d.severity === "warning" ? "warning" : "error", message, source: "schedplay" };
}

// ---- loading ----

function reload(text: string): void {
  if (!api || !textReady) return;
  loadingEl.hidden = true;
  const reply = JSON.parse(api.load("scenario.yaml", text)) as LoadReply;
  probe.lastReply = reply;
  probe.loads++;
  const doc = editor.state.doc;
  const diags = (reply.diagnostics ?? []).map((d) => toCM(doc, d));
  if (!reply.ok && diags.length === 0) {
    diags.push({ from: 0, to: 0, severity: "error", message: reply.error ?? "the scenario did not load", source: "schedplay" });
  }
  editor.dispatch(setDiagnostics(editor.state, diags));
  if (reply.ok) {
    probe.loadedGen = reply.gen;
    noticeEl.hidden = true;
    const s = reply.summary;
    statusEl.textContent = `${s.nodes} node${s.nodes === 1 ? "" : "s"} · ${s.pods} pod${s.pods === 1 ? "" : "s"} · ${s.pending} pending`;
    statusEl.className = "status ok";
    if (selection) showDetails(selection.kind, selection.key);
  } else {
    const errs = diags.filter((d) => d.severity === "error");
    const first = reply.diagnostics?.[0];
    const where = first && first.line ? ` Line ${first.line}: ` : " ";
    noticeTitle.textContent = probe.loadedGen > 0 ? "Showing last valid scenario." : "Nothing to show yet: the scenario has errors.";
    noticeText.textContent = `${errs.length} error${errs.length === 1 ? "" : "s"}.${where}${errs[0]?.message ?? ""}`;
    noticeEl.hidden = false;
    statusEl.textContent = "Scenario has errors";
    statusEl.className = "status bad";
  }
}

// ---- details panel ----

function el(tag: string, cls?: string, text?: string): HTMLElement {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cpu(m: number): string {
  return m % 1000 === 0 ? String(m / 1000) : `${m}m`;
}
function mem(b: number): string {
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

function table(rows: [string, string][]): HTMLElement {
  const t = el("dl", "kv");
  for (const [k, v] of rows) {
    t.append(el("dt", undefined, k), el("dd", undefined, v));
  }
  return t;
}

function podDetails(p: Pod): HTMLElement[] {
  const rows: [string, string][] = [
    ["Namespace", p.namespace],
    ["Status", p.node ? `bound to ${p.node}` : "pending"],
    ["Priority", `${p.priority}${p.priorityClass ? ` (${p.priorityClass})` : ""}`],
    ["Requests", `cpu ${cpu(p.requests.milliCPU)}, memory ${mem(p.requests.memory)}`],
  ];
  if (p.phase) rows.push(["Phase", p.phase]);
  if (p.nominatedNode) rows.push(["Nominated node", p.nominatedNode]);
  if (p.reason) rows.push(["Reason", p.reason]);
  return [el("div", "kind", "Pod"), el("h2", "name", p.name), table(rows)];
}

function nodeDetails(n: Node): HTMLElement[] {
  const pods = n.pods ?? [];
  const req = pods.reduce((a, p) => ({ c: a.c + p.requests.milliCPU, m: a.m + p.requests.memory }), { c: 0, m: 0 });
  const rows: [string, string][] = [
    ["Zone", n.zone || "(no zone label)"],
    ["CPU", `${cpu(req.c)} of ${cpu(n.allocatable.milliCPU)} requested`],
    ["Memory", `${mem(req.m)} of ${mem(n.allocatable.memory)} requested`],
    ["Pods", `${pods.length} of ${n.allocatable.pods}`],
  ];
  if (n.unschedulable) rows.push(["Cordoned", "yes (spec.unschedulable)"]);
  for (const t of n.taints ?? []) rows.push(["Taint", `${t.key}${t.value ? "=" + t.value : ""}:${t.effect}`]);
  const out = [el("div", "kind", "Node"), el("h2", "name", n.name), table(rows)];
  if (pods.length > 0) {
    out.push(el("h3", undefined, "Pods"));
    const ul = el("ul", "pods");
    for (const p of pods) {
      const li = el("li");
      const a = el("button", "link", `${p.namespace}/${p.name}`);
      a.addEventListener("click", () => {
        api?.select("pod", `${p.namespace}/${p.name}`);
        showDetails("pod", `${p.namespace}/${p.name}`);
      });
      li.append(a, el("span", "muted", ` cpu ${cpu(p.requests.milliCPU)}, mem ${mem(p.requests.memory)}`));
      ul.append(li);
    }
    out.push(ul);
  }
  return out;
}

function showDetails(kind: "pod" | "node", key: string): void {
  if (!api) return;
  const r = JSON.parse(api.details(kind, key)) as DetailsReply;
  if (!r.ok) {
    hideDetails();
    return;
  }
  selection = { kind, key };
  detailsBody.replaceChildren(...(r.pod ? podDetails(r.pod) : r.node ? nodeDetails(r.node) : []));
  detailsEl.hidden = false;
}

function hideDetails(): void {
  selection = null;
  detailsEl.hidden = true;
  detailsBody.replaceChildren();
}
$("details-close").addEventListener("click", () => {
  hideDetails();
  api?.select("", "");
});

// ---- the stage ----

function onEvent(json: string): void {
  const ev = JSON.parse(json) as BridgeEvent;
  switch (ev.type) {
    case "select":
      if (ev.kind === "") hideDetails();
      else showDetails(ev.kind, ev.key);
      break;
    case "drawn":
      probe.drawnGen = ev.gen;
      if (ev.gen > 0 && probe.firstFrameMs === 0) {
        probe.firstFrameMs = performance.now();
        loadingEl.hidden = true;
      }
      break;
    case "panic":
    case "fatal":
      probe.panics.push(ev.message);
      statusEl.textContent = "Internal error: " + ev.message.split("\n")[0];
      statusEl.className = "status bad";
      console.error(ev.message);
      break;
  }
}

function attach(b: Bridge): void {
  if (api) return;
  api = b;
  api.setListener(onEvent);
  applyTheme(currentTheme());
  statusEl.textContent = "Ready";
  reload(editor.state.doc.toString());
}
(window as unknown as { onSchedplayStage: (b: Bridge) => void }).onSchedplayStage = attach;
frame.addEventListener("load", () => {
  const b = (frame.contentWindow as unknown as { schedplay?: Bridge } | null)?.schedplay;
  if (b) attach(b);
});

// ---- splitter ----

const main = $("main");
function setSplit(fraction: number): void {
  const f = Math.min(0.8, Math.max(0.15, fraction));
  main.style.setProperty("--split", `${(f * 100).toFixed(2)}%`);
  localStorage.setItem(SPLIT_KEY, String(f));
}
setSplit(Number(localStorage.getItem(SPLIT_KEY)) || 0.38);
const splitter = $("splitter");
splitter.addEventListener("pointerdown", (e) => {
  splitter.setPointerCapture(e.pointerId);
  // The frame would swallow pointer moves that cross it.
  frame.style.pointerEvents = "none";
  main.classList.add("dragging");
});
splitter.addEventListener("pointermove", (e) => {
  if (!splitter.hasPointerCapture(e.pointerId)) return;
  const r = main.getBoundingClientRect();
  setSplit((e.clientX - r.left) / r.width);
});
const endDrag = (e: PointerEvent) => {
  if (splitter.hasPointerCapture(e.pointerId)) splitter.releasePointerCapture(e.pointerId);
  frame.style.pointerEvents = "";
  main.classList.remove("dragging");
};
splitter.addEventListener("pointerup", endDrag);
splitter.addEventListener("pointercancel", endDrag);
splitter.addEventListener("keydown", (e) => {
  const cur = Number(localStorage.getItem(SPLIT_KEY)) || 0.38;
  if (e.key === "ArrowLeft") setSplit(cur - 0.02);
  if (e.key === "ArrowRight") setSplit(cur + 0.02);
});

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !detailsEl.hidden) {
    hideDetails();
    api?.select("", "");
  }
});

// ---- start ----

$("reset").addEventListener("click", () => {
  if (defaultText) setText(defaultText);
});

async function start(): Promise<void> {
  try {
    defaultText = await (await fetch("default.yaml")).text();
  } catch {
    defaultText = "";
  }
  const draft = localStorage.getItem(DRAFT_KEY);
  setText(draft ?? defaultText);
  textReady = true;
  reload(editor.state.doc.toString());
}
start();
