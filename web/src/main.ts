// The playground page: a CodeMirror YAML editor beside the stage frame that
// runs the engine and canvas (wasm). Scenario text is untrusted (it arrives
// in links): everything from it reaches the DOM through textContent only.
import { EditorView, basicSetup } from "codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { Compartment, EditorState, Text } from "@codemirror/state";
import { setDiagnostics, type Diagnostic as CMDiagnostic } from "@codemirror/lint";
import { oneDark } from "@codemirror/theme-one-dark";
import type { Bridge, BridgeEvent, DetailsReply, Diagnostic, LoadReply, SimulateReply, TraceEvent } from "./bridge";
import { el, renderDetails } from "./details";
import { fmtTime, Timeline } from "./timeline";
import { openInitial, setupControls, type Editor } from "./share";
import type { View } from "./permalink";

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
  simDone: false, // the trace of the last good load is complete
  events: 0, // trace events so far
  cursor: -1, // event shown
  now: 0, // simulated seconds shown
  shownGen: 0, // generation of the last seek
  editToFrameMs: 0, // last edit (debounce excluded) to the frame showing its end state
};
(window as unknown as { __schedplay: typeof probe }).__schedplay = probe;
// The whole editor text for the tests (the DOM holds only the visible lines).
(window as unknown as { __schedplayText: () => string }).__schedplayText = () => editor.state.doc.toString();

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
  const started = performance.now();
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
    startPlayback(reply, started);
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

const hooks = {
  selectPod(key: string) {
    api?.select("pod", key);
    showDetails("pod", key);
  },
  jump(seq: number) {
    tl.playing = false;
    tl.seek(seq);
    render(true);
  },
};

function showDetails(kind: "pod" | "node", key: string): void {
  if (!api) return;
  const r = JSON.parse(api.details(kind, key)) as DetailsReply;
  if (!r.ok) {
    hideDetails();
    return;
  }
  selection = { kind, key };
  detailsBody.replaceChildren(...renderDetails(r, tl.now, hooks));
  detailsEl.hidden = false;
  detailsShownAt = performance.now();
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
      if (editStarted > 0 && probe.simDone && ev.gen >= probe.shownGen) {
        probe.editToFrameMs = performance.now() - editStarted;
        editStarted = 0;
      }
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
  if (pendingView) shareEditor.applyView(pendingView);
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

// ---- playback ----

const tl = new Timeline();
const playBtn = $<HTMLButtonElement>("tl-play");
const scrub = $<HTMLInputElement>("tl-scrub");
const timeEl = $("tl-time");
const speedSel = $<HTMLSelectElement>("tl-speed");
const logEl = $("log");
const logList = $("log-list");
const budgetEl = $("budget");
const LOG_MAX = 3000; // rows the event log renders; the scrubber reaches the rest
let editStarted = 0;
let followEnd = false; // after an edit, show the end of the new run
let firstRun = true;
let detailsShownAt = 0;
let shown = { cursor: -2, now: -1 };
let stopped = "";

function startPlayback(reply: LoadReply, started: number): void {
  tl.reset();
  logList.replaceChildren();
  probe.simDone = false;
  stopped = reply.stopped ?? "";
  shown = { cursor: -2, now: -1 };
  // The first run plays from the start; after an edit the end state is
  // what the author wants to see (Home and Space replay it).
  followEnd = !firstRun;
  tl.playing = firstRun;
  if (!firstRun) editStarted = started;
  firstRun = false;
  updateBudget();
  pump();
}

function updateBudget(): void {
  budgetEl.hidden = stopped === "";
  budgetEl.textContent = stopped ? `Budget: ${stopped}.` : "";
}

// pump grows the trace a few milliseconds per frame until it is complete,
// so that re-simulating never freezes the page.
function pump(): void {
  if (!api || probe.simDone) return;
  const r = JSON.parse(api.simulate("8")) as SimulateReply;
  const fresh = (JSON.parse(api.trace(String(tl.events.length))) as { events: TraceEvent[] }).events ?? [];
  tl.events.push(...fresh);
  appendLog(fresh);
  tl.done = probe.simDone = r.done;
  probe.events = tl.events.length;
  if (r.stopped && r.stopped !== stopped) {
    stopped = r.stopped;
    updateBudget();
  }
  if (followEnd) tl.seek(tl.events.length - 1);
  render(false);
}

function appendLog(events: TraceEvent[]): void {
  for (const e of events) {
    if (e.seq >= LOG_MAX) {
      if (e.seq === LOG_MAX) logList.append(el("li", "more", "The log lists the first 3000 events; use the scrubber for the rest."));
      continue;
    }
    const li = el("li");
    li.dataset.seq = String(e.seq);
    const b = el("button");
    const what = `${e.pod ?? ""}${e.node ? " → " + e.node : ""}`;
    b.append(el("span", undefined, fmtTime(e.t)), el("span", `kind-${e.kind}`, e.kind), el("span", undefined, `${what}${what ? ": " : ""}${e.reason}`));
    b.title = e.reason;
    b.addEventListener("click", () => hooks.jump(e.seq));
    li.append(b);
    logList.append(li);
  }
}

let currentLi: HTMLElement | null = null;
// render pushes the playhead to the canvas and the controls; force also
// refreshes the details panel (which replays to explain, so not every frame).
function render(force: boolean): void {
  if (!api) return;
  probe.cursor = tl.cursor;
  probe.now = tl.now;
  const moved = shown.cursor !== tl.cursor;
  if (moved || shown.now !== tl.now) {
    const r = JSON.parse(api.seek(String(tl.cursor), String(tl.now))) as { gen: number };
    probe.shownGen = probe.loadedGen = r.gen;
    shown = { cursor: tl.cursor, now: tl.now };
  }
  const end = tl.end;
  scrub.max = String(end);
  scrub.value = String(tl.now);
  const total = tl.events.length;
  timeEl.textContent = `t=${fmtTime(tl.now)} · event ${tl.cursor + 1}/${total}${probe.simDone ? "" : "…"}`;
  playBtn.textContent = tl.playing ? "❚❚" : "▶";
  playBtn.setAttribute("aria-label", tl.playing ? "Pause" : "Play");
  if (moved) {
    currentLi?.classList.remove("current");
    currentLi = logList.querySelector(`li[data-seq="${tl.cursor}"]`);
    currentLi?.classList.add("current");
    if (currentLi && !logEl.hidden) currentLi.scrollIntoView({ block: "nearest" });
  }
  if (selection && (force || (moved && performance.now() - detailsShownAt > 400))) showDetails(selection.kind, selection.key);
}

let last = performance.now();
function onFrame(t: number): void {
  const dt = Math.min(0.1, (t - last) / 1000);
  last = t;
  pump();
  if (tl.tick(dt)) render(false);
  else if (!tl.playing) playBtn.textContent = "▶";
  requestAnimationFrame(onFrame);
}
requestAnimationFrame(onFrame);

function togglePlay(): void {
  if (!tl.playing && tl.cursor >= tl.events.length - 1 && tl.done) tl.seek(-1); // replay from the start
  tl.playing = !tl.playing;
  followEnd = false;
  render(false);
}
function act(fn: () => void): void {
  followEnd = false;
  fn();
  render(true);
}
playBtn.addEventListener("click", togglePlay);
$("tl-back").addEventListener("click", () => act(() => tl.step(-1)));
$("tl-fwd").addEventListener("click", () => act(() => tl.step(1)));
$("tl-start").addEventListener("click", () => act(() => { tl.playing = false; tl.seek(-1); }));
$("tl-preempt").addEventListener("click", () => act(() => tl.nextPreemption()));
scrub.addEventListener("input", () => act(() => { tl.playing = false; tl.scrub(Number(scrub.value)); }));
speedSel.addEventListener("change", () => { tl.speed = Number(speedSel.value); });
function setLog(show: boolean): void {
  logEl.hidden = !show;
  $("tl-log").setAttribute("aria-pressed", String(show));
}
$("tl-log").addEventListener("click", () => setLog(logEl.hidden));

// ---- keyboard ----

const helpEl = $("help-overlay");
function setHelp(show: boolean): void {
  helpEl.hidden = !show;
  if (show) $("help-close").focus();
}
$("help").addEventListener("click", () => setHelp(true));
$("help-close").addEventListener("click", () => setHelp(false));
helpEl.addEventListener("click", (e) => { if (e.target === helpEl) setHelp(false); });

// Shortcuts never take keys from the editor or a form control.
function typing(t: EventTarget | null): boolean {
  const e = t as HTMLElement | null;
  if (!e) return false;
  if (e.closest(".cm-editor")) return true;
  return e instanceof HTMLInputElement && e.type !== "range" || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement || e.isContentEditable;
}
function onKey(e: KeyboardEvent): void {
  if (e.key === "Escape") {
    if (!helpEl.hidden) setHelp(false);
    else if (!detailsEl.hidden) {
      hideDetails();
      api?.select("", "");
    }
    return;
  }
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  const keys: Record<string, () => void> = {
    " ": togglePlay, k: togglePlay,
    ".": () => act(() => tl.step(1)), ",": () => act(() => tl.step(-1)),
    Home: () => act(() => { tl.playing = false; tl.seek(-1); }),
    End: () => act(() => { tl.playing = false; tl.seek(tl.events.length - 1); }),
    p: () => act(() => tl.nextPreemption()),
    "]": () => { tl.faster(1); speedSel.value = String(tl.speed); },
    "[": () => { tl.faster(-1); speedSel.value = String(tl.speed); },
    l: () => setLog(logEl.hidden),
    "?": () => setHelp(helpEl.hidden),
  };
  const fn = keys[e.key];
  if (!fn) return;
  e.preventDefault();
  fn();
}
document.addEventListener("keydown", onKey);
// Keys pressed while the canvas frame has the focus arrive in its document.
frame.addEventListener("load", () => frame.contentDocument?.addEventListener("keydown", onKey));

// ---- sharing: permalinks, copy link, download, import (share.ts) ----

let pendingView: View | null = null; // a link's view, applied once the stage is up
const shareEditor: Editor = {
  getText: () => editor.state.doc.toString(),
  setText,
  getView: () => (selection?.kind === "pod" ? { pod: selection.key } : {}),
  applyView: (v) => {
    pendingView = api ? null : v;
    if (api && v.pod) {
      api.select("pod", v.pod);
      showDetails("pod", v.pod);
    }
  },
};
setupControls(shareEditor, $("reset").parentElement as HTMLElement);

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
  const opened = openInitial(shareEditor, defaultText);
  setText(opened.text);
  textReady = true;
  reload(editor.state.doc.toString());
  if (opened.view) shareEditor.applyView(opened.view);
}
start();
