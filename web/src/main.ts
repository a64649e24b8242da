// The playground page: a CodeMirror YAML editor (its own bundle, loaded
// once the stage has started: editor-api.ts) beside the stage frame that
// runs the engine and canvas (wasm). Scenario text is untrusted (it arrives
// in links): everything from it reaches the DOM through textContent only.
import type { Bridge, BridgeEvent, DetailsReply, Diagnostic, LoadReply, SimulateReply, TraceEvent, WarmReport } from "./bridge";
import { el, renderDetails } from "./details";
import { diagnosticMessage, PendingEditor, type EditorFactory, type TextEditor } from "./editor-api";
import { fmtTime, SPEEDS } from "./timeline";
import { Player } from "./player";
import { SimProgress } from "./sim-progress";
import { Captions, type Lesson } from "./captions";
import { adoptEdit, drafts, linkDraft, notify, notifyMore, openDrafts, openInitial, replaceKeeping, setupControls, shareProbe, trackAddress, type Editor } from "./share";
import { showSaveState } from "./draft-status";
import { showProblems } from "./problems";
import { decode, isPermalink, startOf, viewOf, type Start, type View } from "./permalink";
import { registerWorker } from "./sw-register";
import { sentences } from "./messages";
import { lang, lessonText, t as tr, translate, switcher, withLang } from "./i18n";
import { lessonAsked, lessonBar, lessonChanged, lessonFromURL, lessonHref, lessonMissing, markDone, refreshProgress, withoutLesson } from "./course";
import { Quiz } from "./questions";
import { setupPresenter } from "./presenter";
import { button as glossaryButton, fill as fillTerms } from "./glossary";
import { Keyboard } from "./keyboard";
import { MotionSetting } from "./motion";
import { setupMenu, setupPhone } from "./phone";
import { setupLessonPlace } from "./lesson-place";
import { Scrubber } from "./scrubmap";
import { EventLog } from "./eventlog";
import { afterFrame, EditPace, pageClock } from "./edit-pace";

const THEME_KEY = "schedplay.theme";
const SPLIT_KEY = "schedplay.split";
const BIG_TEXT = 512 << 10; // characters; loads that take long enough to announce

type Theme = "light" | "dark";

// State the end-to-end tests read; nothing else depends on it.
const probe = {
  firstFrameMs: 0, // performance.now() when the first scene was on screen
  loadedGen: 0, // generation of the last good load
  drawnGen: 0, // generation last on screen
  loads: 0, // reloads done
  cancelledLoads: 0, // reloads the reader cancelled
  loading: false, // a reload is under way
  editPending: false, // an edit waits for its load, or its words for the typing to pause
  lastReply: null as LoadReply | null,
  panics: [] as string[],
  simDone: false, // the trace of the last good load is complete
  events: 0, // trace events so far
  cursor: -1, // event shown
  now: 0, // simulated seconds shown
  speed: 1, // playback speed
  shownGen: 0, // generation of the last seek
  editToFrameMs: 0, // last edit's reload to the frame showing its end state
  // Where the last edit's time went (ms since its reload started, which is
  // the frame after the last keystroke): the bridge's load, the page's
  // handling of the reply, the first frame showing the edited scenario
  // (its t=0 view, when Go has drawn it), that frame's rendering step over
  // (committed) and the next frame's start (painted), and the frame showing
  // its end state (web/bench prints these); waited is from the editor's
  // change to the reload's start, key from the keystroke's event (before
  // the editor handled it) to the reload's start.
  editMarks: { key: 0, waited: 0, load: 0, reply: 0, shown: 0, first: 0, committed: 0, painted: 0, frame: 0 },
  captionsSeen: [] as string[], // lesson captions in the order shown
  // performance.now() when the text was ready and the stage's bridge came up;
  // how long the first load took (web/bench/first-frame.mjs reads these).
  startup: { text: 0, attach: 0, firstLoadMs: 0 },
  // The warm-up (warmNext): its idle slices, the time they took, the
  // longest, and when it was done (0: not yet); the worker's part before
  // them (warmInWorker): its report, when it started and when the report
  // came (0: not yet).
  warm: { slices: 0, busyMs: 0, maxMs: 0, doneAt: 0, worker: { ok: false, startedAt: 0, doneAt: 0 } as WarmReport & { startedAt: number; doneAt: number } },
};
(window as unknown as { __schedplay: typeof probe }).__schedplay = probe;
// The whole editor text for the tests (the DOM holds only the visible lines),
// and a way for the bench to put in large scenarios without typing them.
(window as unknown as { __schedplayText: () => string }).__schedplayText = () => editor.text();
(window as unknown as { __schedplaySetText: (t: string) => void }).__schedplaySetText = (t) => setText(t);

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

function currentTheme(): Theme {
  return document.documentElement.dataset.theme === "dark" ? "dark" : "light";
}
function applyTheme(t: Theme): void {
  document.documentElement.dataset.theme = t;
  $("theme").textContent = tr(t === "dark" ? "ui.themeLight" : "ui.themeDark");
  localStorage.setItem(THEME_KEY, t);
  editor?.setDark(t === "dark");
  api?.setTheme(t);
  const doc = frame.contentDocument;
  if (doc?.body) doc.body.style.background = t === "dark" ? "#11151c" : "#f4f6fa";
}
const savedTheme = localStorage.getItem(THEME_KEY) as Theme | null;
const initialTheme: Theme = savedTheme ?? (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");

// ---- editor ----

// Edits load at the pace edit-pace.ts sets: the keystroke's frame first,
// a burst of keystrokes once where loads are costly, words once typing
// pauses.
const pace = new EditPace(pageClock, { load: loadEdit, stale: stopStale });
// keyAt is the last keystroke's event time (keydown, or beforeinput for
// text that comes without one), for editMarks.key.
let keyAt = 0;
$("editor").addEventListener("keydown", (e) => { keyAt = e.timeStamp; }, true);
$("editor").addEventListener("beforeinput", (e) => { if (e.timeStamp - keyAt > 50) keyAt = e.timeStamp; }, true);
function onEdit(): void {
  pace.edit();
  probe.editPending = true;
}
// stopStale stops the work for a text that typing has left behind: the
// growing run on screen (a newer load replaces it) and a load under way.
function stopStale(): void {
  player.paused = true;
  if (!loading || !api) return;
  loadSeq++; // its reply is dropped
  loading = probe.loading = false;
  simProgress.loadEnd();
  api.cancelLoad();
}
function loadEdit(): void {
  const text = editor.text();
  reload(text);
  // A big paste takes a while to read: the status says so once the typing
  // has paused, should the load still be under way.
  if (text.length >= BIG_TEXT) {
    const seq = loadSeq;
    pace.whenQuiet(() => {
      if (!loading || loadSeq !== seq) return;
      statusEl.textContent = tr("status.reading", { mb: (text.length / (1 << 20)).toFixed(1) });
      statusEl.className = "status busy";
    });
  }
  // A course lesson is not the learner's draft (their draft stays), nor a
  // link of theirs (its address names the lesson), until they edit it:
  // then it is, and the address forgets the lesson so that a reload
  // shows their edit.
  if (courseLesson && !lessonAdopted) {
    if (text === lessonOriginal) return;
    lessonAdopted = true;
    adoptEdit(shareEditor, text, "your edit of a lesson", defaultText);
    history.replaceState(null, "", withoutLesson(location.href));
  }
  trackAddress(shareEditor, true);
  // Saving a large draft takes milliseconds (10 to 30 ms at 1 MB, the
  // string's copy into IndexedDB): after the load's first frame (reload
  // asks for it), or as the page goes away if that comes first, and
  // DRAFT_LATEST_MS after the edit where a long load has not answered.
  if (pendingDraft === null) setTimeout(saveDraft, DRAFT_LATEST_MS);
  pendingDraft = text;
}
const DRAFT_LATEST_MS = 2000;
let pendingDraft: string | null = null;
function saveDraft(): void {
  if (pendingDraft === null) return;
  drafts.save(pendingDraft);
  pendingDraft = null;
}
addEventListener("pagehide", saveDraft);
const pending = new PendingEditor(onEdit);
let editor: TextEditor = pending;

// The editor bundle is fetched once the stage frame has loaded (its script
// has started the wasm download), or after a second at the latest.
let editorRequested = false;
function loadEditor(): void {
  if (editorRequested) return;
  editorRequested = true;
  const s = document.createElement("script");
  s.src = ASSETS.editor;
  document.head.append(s);
}
(window as unknown as { schedplayEditorReady: (f: EditorFactory) => void }).schedplayEditorReady = (create) => {
  if (editor !== pending) return;
  editor = create($("editor"), pending.init());
};
if (frame.contentDocument?.readyState === "complete" && frame.contentWindow?.location.href.endsWith("stage.html")) loadEditor();
frame.addEventListener("load", loadEditor);
setTimeout(loadEditor, 1000);
applyTheme(initialTheme);
$("theme").addEventListener("click", () => applyTheme(currentTheme() === "dark" ? "light" : "dark"));

function setText(text: string): void {
  editor.setText(text);
}

// ---- loading ----

// The load under way (loads run in steps, between which the page stays
// live); a newer one replaces it, and Cancel stops it.
let loadSeq = 0;
let loading = false;

async function reload(text: string): Promise<void> {
  if (!api || !textReady) return;
  loadingEl.hidden = true;
  const started = performance.now();
  // A course lesson asks its questions: the session holds the trace back
  // at each one's answer until the learner gives it.
  api.setQuiz(courseLesson ? "true" : "false");
  const mine = ++loadSeq;
  loading = probe.loading = true;
  const b = api;
  simProgress.loadStart(() => b.cancelLoad());
  player.paused = true;
  const json = await b.loadInSteps("scenario.yaml", text);
  // A newer load stopped this one: its reply is the one to show.
  if (mine !== loadSeq) return;
  player.paused = false;
  // The edit's draft, after the frame that this reply's handling leads to
  // and in idle time (not before the frame showing the run's end).
  if (pendingDraft !== null) afterFrame(() => requestIdleCallback(saveDraft, { timeout: DRAFT_LATEST_MS }));
  loading = probe.loading = false;
  simProgress.loadEnd();
  const reply = JSON.parse(json) as LoadReply;
  const loaded = performance.now() - started;
  pace.loaded(loaded);
  if (reply.cancelled) {
    // The last good scenario stays on screen and the text in the editor;
    // a link's text held for the draft is not saved (it did not load).
    linkDraft.loaded(false);
    probe.cancelledLoads++;
    probe.editPending = false;
    statusEl.textContent = tr("progress.loadCancelled");
    statusEl.className = "status warn";
    pendingView = null; // a link's view, for the text that did not load
    return;
  }
  if (probe.loads === 0) probe.startup.firstLoadMs = loaded;
  probe.lastReply = reply;
  probe.loads++;
  const diagnostics = reply.diagnostics ?? [];
  const error = reply.ok ? undefined : reply.error ?? tr("embed.notLoaded");
  linkDraft.loaded(reply.ok);
  // The words wait for typing to pause (QUIET_MS); good news that clears
  // the notice does not.
  pace.whenQuiet(() => {
    probe.editPending = false;
    sayReply(reply, diagnostics, error);
  });
  if (reply.ok) {
    probe.loadedGen = reply.gen;
    noticeEl.hidden = true;
    const replied = performance.now() - started;
    startPlayback(reply, started);
    // The next edit's load hands out objects copied now, after this frame,
    // a slice per task (copying 5,000 pods takes some 90 ms).
    afterFrame(prepareNext);
    if (!warmStarted) {
      warmStarted = true;
      afterFrame(() => void warmInWorker().then(() => requestIdleCallback(warmNext, { timeout: WARM_WAIT_MS })));
    }
    if (editStarted > 0) probe.editMarks = { key: keyAt > 0 ? started - keyAt : 0, waited: pace.lastEditAt > 0 ? started - pace.lastEditAt : 0, load: loaded, reply: replied, shown: performance.now() - started, first: 0, committed: 0, painted: 0, frame: 0 };
    if (pendingView) {
      const v = pendingView;
      pendingView = null;
      applyView(v);
    }
  }
}

// sayReply puts a load's reply into words: the editor's marks, the
// problems, the status and, for a scenario that did not load, the notice.
function sayReply(reply: LoadReply, diagnostics: Diagnostic[], error: string | undefined): void {
  editor.setDiagnostics(diagnostics, error);
  showProblems(diagnostics, error, (line, col) => editor.reveal(line, col));
  if (reply.ok) {
    const s = reply.summary;
    const warnings = diagnostics.filter((d) => d.severity === "warning").length;
    const count = (key: string, n: number) => tr(key, { n }, n);
    statusEl.textContent = (reply.partial
      ? [count("status.nodes", s.nodes), tr("status.nodesOnly")]
      : [count("status.nodes", s.nodes), count("status.pods", s.pods), count("status.pending", s.pending),
        ...(warnings ? [count("status.warnings", warnings)] : [])]).join(" · ");
    statusEl.className = reply.partial || warnings ? "status warn" : "status ok";
    return;
  }
  const errs = diagnostics.filter((d) => d.severity !== "warning").map(diagnosticMessage);
  if (diagnostics.length === 0 && error !== undefined) errs.push(error);
  const first = diagnostics.find((d) => d.severity !== "warning");
  const where = first && first.line ? ` ${tr("notice.where", { line: first.line, col: first.col })} ` : " ";
  noticeTitle.textContent = tr(probe.loadedGen > 0 ? "notice.lastValid" : "notice.nothingYet");
  noticeText.textContent = `${tr("notice.errors", { n: errs.length }, errs.length)}${where}${errs[0] ?? ""}`;
  noticeEl.hidden = false;
  statusEl.textContent = tr("status.hasErrors");
  statusEl.className = "status bad";
}

// prepareNext has the stage copy ahead what the next load hands out, in
// slices between which the page gets its turn; a newer load stops it.
const PREPARE_SLICE_MS = "20";
function prepareNext(): void {
  if (!api || loading) return;
  const r = JSON.parse(api.prepare(PREPARE_SLICE_MS)) as { done?: boolean };
  if (r.done === false) setTimeout(prepareNext, 0);
}

// The warm-up, once, after the first scenario's frame: the browser then
// has the loader's and the engine's code compiled optimized before a
// person's first large paste, which otherwise runs in baseline code
// (docs/performance-web.md). A worker does it first (warmInWorker), off
// this thread, so that most of the compiling happens elsewhere; then the
// stage does it in the page's idle time (warmNext: ui/session's Warm, a
// made-up cluster loaded, simulated and laid out on a session of its
// own), shorter now, which the worker alone does not replace (a paste
// after it alone was slower).
let warmStarted = false;
const WARM_CORES = 4;
async function warmInWorker(): Promise<void> {
  // Where there are cores to spare the worker starts at once, while the
  // first run plays, so that a paste seconds after opening the page finds
  // the code compiled; on two cores it took that run's frames (some of
  // 50 to 200 ms), so it waits for the run to end, as warmNext does, or
  // for the person to go to the editor (a paste is likely to follow).
  const cores = navigator.hardwareConcurrency || 1;
  const pane = $("editor-pane");
  let editing = pane.contains(document.activeElement);
  pane.addEventListener("focusin", () => { editing = true; }, { once: true });
  while (cores < WARM_CORES && !editing && (loading || tl.playing)) await new Promise((r) => setTimeout(r, 250));
  // On one core it would take the page's own time.
  const start = cores > 1 ? (frame.contentWindow as { schedplayWarm?: () => Promise<WarmReport> } | null)?.schedplayWarm : undefined;
  const startedAt = (probe.warm.worker.startedAt = performance.now());
  const r = start ? await start() : { ok: false, error: "one core" };
  probe.warm.worker = { ...r, startedAt, doneAt: performance.now() };
}
const WARM_SLICE_MS = 12;
const WARM_WAIT_MS = 200;
function warmNext(deadline: IdleDeadline): void {
  if (!api) return;
  // A load under way comes first, and a playing run is left its frames
  // (a slice's first calls compile code: 100 ms and more at times).
  if (loading || tl.playing) {
    setTimeout(() => requestIdleCallback(warmNext, { timeout: WARM_WAIT_MS }), 250);
    return;
  }
  // Where the page is never idle long (a playing lesson on a slow
  // machine), a slice still comes every WARM_WAIT_MS.
  const ms = deadline.didTimeout ? WARM_SLICE_MS : Math.floor(Math.min(deadline.timeRemaining(), WARM_SLICE_MS));
  if (ms >= 2) {
    const began = performance.now();
    const r = JSON.parse(api.warm(String(ms))) as { done?: boolean };
    probe.warm.slices++;
    const took = performance.now() - began;
    probe.warm.busyMs += took;
    probe.warm.maxMs = Math.max(probe.warm.maxMs, took);
    if (r.done !== false) {
      probe.warm.doneAt = performance.now();
      return;
    }
  }
  requestIdleCallback(warmNext, { timeout: WARM_WAIT_MS });
}

// ---- details panel ----

const hooks = {
  selectPod(key: string) {
    hooks.select("pod", key);
  },
  select(kind: "pod" | "node", key: string) {
    api?.select(kind, key);
    showDetails(kind, key);
  },
  jump(seq: number) {
    player.act(() => {
      tl.playing = false;
      tl.seek(seq);
    });
  },
  attempt(n: number) {
    if (selection) showDetails(selection.kind, selection.key, n);
  },
};

// showDetails describes the selected pod or node; for a pod, attempt picks
// the scheduling cycle to explain (0: the last one so far).
function showDetails(kind: "pod" | "node", key: string, attempt = 0): void {
  if (!api) return;
  const r = JSON.parse(api.details(kind, key, String(attempt))) as DetailsReply;
  if (!r.ok) {
    hideDetails();
    return;
  }
  selection = { kind, key };
  quiz?.selection(kind, key);
  detailsBody.replaceChildren(...renderDetails(r, tl.now, hooks));
  detailsEl.hidden = false;
  detailsShownAt = performance.now();
}

function hideDetails(): void {
  selection = null;
  quiz?.selection("", "");
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
    case "focus":
      keyboard.focused(ev.kind, ev.key);
      break;
    case "drawn":
      probe.drawnGen = ev.gen;
      if (editStarted > 0 && probe.editMarks.first === 0 && ev.gen >= editGen) {
        const marks = probe.editMarks, started = editStarted;
        marks.first = performance.now() - started;
        // "first" is taken when Go has drawn, before the frame's commit (in
        // headless Chromium the commit waits for SwiftShader to draw the
        // canvas); the next frame starts after it.
        requestAnimationFrame(() => { marks.painted = performance.now() - started; });
        // A task posted now runs once this frame's rendering step, its
        // commit included, is over: before the next frame's callbacks (the
        // player's slice of simulation among them), which painted waits for.
        const after = new MessageChannel();
        after.port1.onmessage = () => { marks.committed = performance.now() - started; };
        after.port2.postMessage(0);
      }
      if (editStarted > 0 && probe.simDone && ev.gen >= probe.shownGen) {
        probe.editToFrameMs = performance.now() - editStarted;
        probe.editMarks.frame = probe.editToFrameMs;
        editStarted = 0;
      }
      if (ev.gen >= holdGen) player.hold = false;
      followCut();
      if (ev.gen > 0 && probe.firstFrameMs === 0) {
        probe.firstFrameMs = performance.now();
        loadingEl.hidden = true;
      }
      break;
    case "loadProgress":
      simProgress.loadUpdate(ev.done, ev.total);
      break;
    case "panic":
    case "fatal":
      probe.panics.push(ev.message);
      statusEl.textContent = tr("status.internalError", { message: ev.message.split("\n")[0] });
      statusEl.className = "status bad";
      console.error(ev.message);
      break;
  }
}

function attach(b: Bridge): void {
  if (api) return;
  api = b;
  player.api = b;
  player.run();
  api.setListener(onEvent);
  applyTheme(currentTheme());
  if (follow) api.setFollow("true");
  motion.attach(b);
  statusEl.textContent = tr("status.ready");
  probe.startup.attach = performance.now();
  reload(editor.text());
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
  splitter.setAttribute("aria-valuenow", String(Math.round(f * 100)));
  localStorage.setItem(SPLIT_KEY, String(f));
}
const splitter = $("splitter");
setSplit(Number(localStorage.getItem(SPLIT_KEY)) || 0.38);
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

// ---- playback (player.ts) ----

const playBtn = $<HTMLButtonElement>("tl-play");
const scrub = $<HTMLInputElement>("tl-scrub");
const timeEl = $("tl-time");
const scrubber = new Scrubber(scrub, $<HTMLDataListElement>("tl-ticks"), (t) => `t=${fmtTime(t)}`);
const speedSel = $<HTMLSelectElement>("tl-speed");
const logEl = $("log");
const budgetEl = $("budget");
let editStarted = 0;
let editGen = 0; // the generation of the edit's t=0 view
let holdGen = 0; // the generation of the load's t=0 view, drawn before simulating
let firstRun = true;
let detailsShownAt = 0;

const player = new Player({
  onEvents(events) {
    eventLog.append(events);
    captions?.add(events);
  },
  onRender: renderControls,
  // A question holds the run back: if a link's moment lies past questions
  // the recipient has not answered, they close (as they were on the
  // sender's screen) and the run goes on to the moment. A moment already
  // shown or given up (the reader moved) closes nothing.
  onHeld() {
    const at = linkAt;
    linkAt = null;
    return at !== null && quiz !== null && player.waitingForTime && quiz.passTo(at);
  },
  busy: () => pace.pending,
  onStopped(stopped) {
    budgetEl.hidden = stopped === "";
    budgetEl.textContent = !stopped ? "" : tr(player.cancelled ? "progress.cancelled" : "progress.budget", { why: stopped });
  },
});
const tl = player.tl;
const eventLog = new EventLog(logEl, $("log-list"), $("log-keys"), { jump: (seq) => hooks.jump(seq), cursor: () => tl.cursor, afterFrame });
const simProgress = new SimProgress(() => player.cancel());
budgetEl.before(simProgress.el);

function startPlayback(reply: LoadReply, started: number): void {
  eventLog.clear();
  probe.simDone = false;
  linkAt = null; // a link's view, if any, comes after (applyView)
  setLesson(reply.lesson ?? null);
  // The first run plays from the start (a lesson, the default scenario);
  // after an edit the end state is what the author wants to see (Home and
  // Space replay it).
  player.start({ playing: firstRun, followEnd: !firstRun, stopped: reply.stopped, gen: reply.gen });
  simProgress.start();
  // The scenario's t=0 view goes on screen before anything simulates: the
  // first frame of an edit comes as soon as its load is done, and the run
  // grows behind it (a hidden tab draws nothing: the hold ends anyway).
  player.hold = true;
  holdGen = reply.gen;
  setTimeout(() => { if (holdGen === reply.gen) player.hold = false; }, 250);
  tl.speed = Number(speedSel.value) || 1;
  if (!firstRun) {
    editStarted = started;
    editGen = reply.gen;
  }
  firstRun = false;
  player.pump();
  player.render(false);
}

// renderControls shows the playhead in the controls; force also refreshes
// the details panel (which replays to explain, so not every frame).
function renderControls(moved: boolean, force: boolean): void {
  probe.cursor = tl.cursor;
  probe.now = tl.now;
  probe.speed = tl.speed;
  probe.events = tl.events.length;
  probe.simDone = player.simDone;
  followCut();
  simProgress.update(player.simDone || player.simHeld, tl.events.length, tl.events.length > 0 ? tl.events[tl.events.length - 1].t : 0);
  probe.shownGen = probe.loadedGen = player.gen;
  scrubber.render(() => tl.events.map((e) => e.t), tl.events.length, tl.end, tl.now, !player.simDone);
  const total = tl.events.length;
  timeEl.textContent = tr("tl.position", { t: fmtTime(tl.now), i: tl.cursor + 1, n: total, more: player.simDone ? "" : "…" });
  playBtn.textContent = tl.playing ? "❚❚" : "▶";
  playBtn.setAttribute("aria-label", tr(tl.playing ? "tl.pause" : "tl.play"));
  if (moved) eventLog.highlight();
  quiz?.hold(tl.cursor);
  if (courseLesson && !quiz?.active && player.simDone && tl.cursor >= tl.events.length - 1 && tl.events.length > 0) lessonDone();
  // A paused playhead that moved is a moment worth a link (share.ts).
  if (moved && !tl.playing && !player.waitingForTime && textReady && (!courseLesson || lessonAdopted)) trackAddress(shareEditor);
  showCaption();
  keyboard.text.update(`${player.gen}:${tl.cursor}`, tl.now, force);
  if (selection && (force || (moved && performance.now() - detailsShownAt > 400))) showDetails(selection.kind, selection.key);
}

// followCut has the canvas cut instead of glide while it follows an edited
// run to its end, up to the frame that shows the end (motion.ts).
function followCut(): void {
  motion.cut(player.followEnd && (!player.simDone || probe.drawnGen < player.gen));
}

const togglePlay = () => player.toggle();
const act = (fn: () => void) => player.act(fn);
playBtn.addEventListener("click", togglePlay);
$("tl-back").addEventListener("click", () => act(() => tl.step(-1)));
$("tl-fwd").addEventListener("click", () => act(() => tl.step(1)));
$("tl-start").addEventListener("click", () => act(() => { tl.playing = false; tl.seek(-1); }));
$("tl-preempt").addEventListener("click", () => act(() => tl.nextPreemption()));
scrub.addEventListener("input", () => act(() => { tl.playing = false; tl.scrub(scrubber.time()); }));
function setSpeed(speed: number): void {
  tl.speed = speed;
  speedSel.value = String(speed);
}
speedSel.addEventListener("change", () => { tl.speed = Number(speedSel.value); });
function setLog(show: boolean): void {
  // The focus in a log being hidden (its l key) goes to the Events button,
  // not to the page's body.
  const hadFocus = !show && logEl.contains(document.activeElement);
  logEl.hidden = !show;
  $("tl-log").setAttribute("aria-pressed", String(show));
  if (hadFocus) $("tl-log").focus();
}
$("tl-log").addEventListener("click", () => setLog(logEl.hidden !== false));
// Follow the action: the canvas frames what each event involves (its
// node, pod and victims, from the engine's event); off, the whole cluster.
let follow = false;
function setFollow(on: boolean): void {
  follow = on;
  $("tl-follow").setAttribute("aria-pressed", String(on));
  api?.setFollow(String(on));
}
$("tl-follow").addEventListener("click", () => setFollow(!follow));

// ---- keyboard focus announcements and the text view (keyboard.ts) ----

const motion = new MotionSetting($("motion"));
setupPhone();
setupLessonPlace();
const keyboard = new Keyboard({ api: () => api, select: (kind, key) => hooks.select(kind, key) });

// ---- lesson captions (captions.ts) ----

const lessonEl = $("lesson");
const captionEl = $("lesson-caption");
let captions: Captions | null = null;
let captionShown = -2;
let captionText = ""; // the words the caption element holds

let quiz: Quiz | null = null;
let lessonKey = "";

function setLesson(lesson: Lesson | null): void {
  captions = lesson ? new Captions(lesson) : null;
  captionShown = -2;
  probe.captionsSeen = [];
  lessonEl.hidden = !lesson;
  lessonKey = lesson?.name ?? "";
  const title = lesson ? lessonText(`${lessonKey}.title`, lesson.title) : "";
  const summary = lesson ? lessonText(`${lessonKey}.summary`, lesson.summary) : "";
  $("lesson-title").textContent = title;
  const sum = $("lesson-summary");
  sum.textContent = summary;
  sum.title = summary;
  document.querySelector(".course-bar")?.remove();
  if (courseLesson) lessonEl.prepend(lessonBar(courseLesson));
  // Questions belong to the course: a lesson opened from it asks them; the
  // same file opened as a draft or a shared link plays straight through.
  quiz = lesson && api && courseLesson ? new Quiz(api, lesson, $("quiz"), {
    pause(seq) {
      tl.playing = false;
      if (tl.cursor !== seq) {
        tl.seek(seq);
        queueMicrotask(() => player.render(true));
      }
    },
    play: () => player.play(),
    finished: lessonDone,
  }) : null;
  showCaption();
}

function lessonDone(): void {
  if (!courseLesson) return;
  markDone(courseLesson);
  refreshProgress();
}

function showCaption(): void {
  if (!captions) return;
  const i = captions.at(tl.cursor, tl.now);
  if (i === captionShown) return;
  captionShown = i;
  const text = i >= 0 ? lessonText(`${lessonKey}.caption.${i}`, captions.lesson.captions[i].text) : "";
  if (i >= 0) probe.captionsSeen.push(text);
  // The same words stay the same elements: a glossary link someone has
  // focused survives playback reaching the caption again (a reload, a
  // caption repeated). New words move such a focus to the caption itself,
  // or the lesson panel when no caption shows, never to the page's body.
  if (text === captionText) return;
  captionText = text;
  const hadFocus = captionEl.contains(document.activeElement);
  fillTerms(captionEl, text);
  captionEl.hidden = i < 0;
  lessonEl.classList.toggle("has-caption", i >= 0);
  if (hadFocus) (i >= 0 ? captionEl : lessonEl).focus({ preventScroll: true });
}

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
// dismiss closes the one thing Esc closes first, and reports whether
// there was one. An open <dialog> (the glossary) closes itself on Esc.
function dismiss(): boolean {
  if (document.querySelector("dialog[open]")) return true;
  if (!helpEl.hidden) setHelp(false);
  else if (!detailsEl.hidden) {
    hideDetails();
    api?.select("", "");
  } else return false;
  return true;
}
function onKey(e: KeyboardEvent): void {
  if (e.key === "Escape") {
    dismiss();
    return;
  }
  if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  // Space on a control of the details panel (a fold's summary, a sort
  // button) works that control, as Enter does, instead of playing.
  if (e.key === " " && (e.target as HTMLElement | null)?.closest?.("#details button, #details summary, #details a")) return;
  const keys: Record<string, () => void> = {
    " ": togglePlay, k: togglePlay,
    ".": () => act(() => tl.step(1)), ",": () => act(() => tl.step(-1)),
    Home: () => act(() => { tl.playing = false; tl.seek(-1); }),
    End: () => act(() => { tl.playing = false; tl.seek(tl.events.length - 1); }),
    p: () => act(() => tl.nextPreemption()),
    "]": () => { tl.faster(1); setSpeed(tl.speed); },
    "[": () => { tl.faster(-1); setSpeed(tl.speed); },
    l: () => setLog(logEl.hidden !== false),
    "?": () => setHelp(helpEl.hidden !== false),
    t: () => $("tl-text").click(),
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

// A link's view (selected pod, time, speed), applied once its scenario is
// loaded: at once, or after the stage comes up or the pending reload.
let pendingView: View | null = null;
let linkAt: Start | null = null; // a link's moment in a course lesson, see onHeld
function applyView(v: View): void {
  if (!api || pace.pending || !textReady || loading) {
    pendingView = v;
    return;
  }
  if (v.speed !== undefined && v.speed > 0) {
    // The nearest speed the control offers.
    setSpeed(SPEEDS.reduce((a, b) => (Math.abs(Math.log(b / v.speed!)) < Math.abs(Math.log(a / v.speed!)) ? b : a)));
  }
  const at = startOf(v);
  // A course lesson's questions that the moment has passed are closed
  // once the run has reached them (onHeld), so that the moment shows.
  linkAt = quiz ? at : null;
  if (at.event !== null) player.seekEvent(at.event, at.t, at.playing);
  else if (at.t > 0) player.seekTime(at.t);
  if (v.pod) {
    api.select("pod", v.pod);
    showDetails("pod", v.pod);
  }
}
const shareEditor: Editor = {
  getText: () => editor.text(),
  textLength: () => editor.length(),
  setText,
  getView: () => viewOf(tl, selection?.kind === "pod" ? selection.key : undefined),
  applyView,
};
setupControls(shareEditor, $("reset").parentElement as HTMLElement);

// ---- start ----

$("reset").addEventListener("click", () => {
  if (defaultText) replaceKeeping(shareEditor, defaultText, "a reset", tr("share.resetDone"));
});

// A lesson opened from the course (index.html?lesson=NAME) replaces
// nothing: the learner's draft is neither shown nor overwritten.
let courseLesson = lessonFromURL();
let lessonOriginal = ""; // the lesson's text as opened
let lessonAdopted = false; // edited: the text is the learner's draft
translate();
$("lessons-link").setAttribute("href", withLang("gallery.html"));
$("reset").parentElement?.prepend(switcher());
$("lessons-link").after(glossaryButton());
setupMenu();
setupPresenter({ step: (d) => act(() => tl.step(d)), quizNext: () => quiz?.next(), label: () => tr("ui.presenter"), canvas: (on) => api?.setPresenter(on ? "true" : "false"), dismiss });

async function start(): Promise<void> {
  try {
    defaultText = await (await fetch("default.yaml")).text();
  } catch {
    defaultText = "";
  }
  await openDrafts((s) => showSaveState(s, () => editor.text()));
  let opened: { text: string; view?: View } | null = null;
  let why = ""; // why the course's lesson could not be loaded
  if (courseLesson) {
    try {
      const r = await fetch(`examples/${encodeURIComponent(courseLesson)}.yaml`);
      if (r.ok) opened = { text: await r.text() };
      else why = `HTTP ${r.status}`;
      lessonOriginal = opened?.text ?? "";
    } catch (err) {
      why = err instanceof Error ? err.message : String(err);
      opened = null;
    }
  }
  // A link copied in a lesson not yet edited names the lesson and carries
  // the moment in its fragment: the lesson opens at that moment. A link
  // whose text is not the lesson's (the lesson has changed since) is
  // opened as the link it is, what the sender saw, with a notice that
  // links to the lesson as it is now; the address forgets the lesson. A
  // damaged link (cut short in a message, say) has lost the sender's
  // moment, but its lesson is still the one the address names: the lesson
  // opens from its start, the link's error says so, and the address keeps
  // the lesson without the damaged fragment.
  let changed: { name: string; file: string } | null = null;
  if (opened && courseLesson && isPermalink(location.hash)) {
    const d = decode(location.hash);
    if (!d.ok) {
      notify("error", tr("share.linkFailed"), sentences(d.error, tr("course.fromStart")));
      history.replaceState(null, "", location.pathname + location.search);
    } else if (d.link.yaml === opened.text) opened.view = d.link.view;
    else {
      changed = { name: courseLesson, file: opened.text };
      opened = null;
    }
  }
  if (!opened) {
    courseLesson = null;
    opened = openInitial(shareEditor, defaultText);
    const asked = lessonAsked();
    if (changed) {
      const m = lessonChanged(changed.name, changed.file);
      notifyMore(m.title, m.text, [], m.extra);
      history.replaceState(null, "", withoutLesson(location.href));
    } else if (asked !== null) missingLesson(asked, why);
  }
  setText(opened.text);
  // Loaded right here: the edit's queued load must not load it a second time.
  pace.drop();
  probe.editPending = false;
  textReady = true;
  if (opened.view) pendingView = opened.view;
  probe.startup.text = performance.now();
  reload(editor.text());
}

// missingLesson says that the lesson the address names (a shared link with
// a typo, a lesson renamed since) did not open, and what the editor shows
// instead: the learner's draft, as without the lesson. The address forgets
// the lesson, so that it claims nothing the page does not show and a
// reload shows the same draft.
function missingLesson(name: string, why: string): void {
  const m = lessonMissing(name, why, shareProbe.opened);
  const retry = { label: tr("course.retry"), id: "lesson-retry", run: () => location.assign(lessonHref(name)) };
  notifyMore(m.title, m.text, why !== "" ? [retry] : [], m.extra);
  history.replaceState(null, "", withoutLesson(location.href));
}

start();
registerWorker();
