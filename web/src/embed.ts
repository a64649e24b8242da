// The embed page (embed.html): a scenario's canvas with minimal chrome for
// documentation sites, and a postMessage API for the host page.
//
// Query parameters (docs/embedding.md): editor=none|collapsed|open,
// readonly=1, autoplay=1, t=SECONDS, theme=auto|light|dark, height=PX|auto,
// load=visible|click|eager, origins=ORIGIN,ORIGIN (who may drive it; the
// default is this page's own origin), example=NAME (or lesson=NAME, the
// playground's word for the same file), lang=en|zh-CN|id (the lesson's
// captions and the "open" link; else the reader's language). The scenario
// comes from the fragment (a permalink) or from example=NAME
// (examples/NAME.yaml).
//
// Manners towards the host: nothing here calls focus() or scrolls; the
// heavy part (the stage frame with the wasm engine) loads only when the
// embed is scrolled into view or clicked; a shield over the canvas lets
// wheel events scroll the host page until the reader clicks the canvas;
// and nothing is posted to the parent until it has said hello from an
// allowed origin (a postMessage to a window of another origin than the
// one named fails with an error in the host's console).
import type { Bridge, BridgeEvent, LoadReply } from "./bridge";
import { Player } from "./player";
import { EditPace, pageClock } from "./edit-pace";
import { Captions } from "./captions";
import { fmtTime } from "./timeline";
import { decode, ENGINE_VERSION, isPermalink, linkFor, viewOf } from "./permalink";
import { lessonMeta } from "./lesson-meta";
import { Controls } from "./embed-controls";
import { parseOrigins } from "./embed-origins";
import { registerWorker } from "./sw-register";
import { captionText } from "./embed-captions";
import { joinNames, similarNames } from "./similar";
import { lang, sentences, t, translateWith } from "./messages";

type Msg = { schedplay: 1; type: string; [k: string]: unknown };

const q = new URLSearchParams(location.search);
const opts = {
  editor: (["none", "collapsed", "open"].includes(q.get("editor") ?? "") ? q.get("editor") : "none") as "none" | "collapsed" | "open",
  readonly: q.get("readonly") === "1" || q.get("readonly") === "true",
  autoplay: q.get("autoplay") === "1" || q.get("autoplay") === "true",
  t: Math.max(0, Number(q.get("t")) || 0),
  theme: (["light", "dark"].includes(q.get("theme") ?? "") ? q.get("theme") : "auto") as "auto" | "light" | "dark",
  autoHeight: q.get("height") === "auto",
  height: Math.min(4000, Math.max(120, Number(q.get("height")) || 420)),
  load: (["click", "eager"].includes(q.get("load") ?? "") ? q.get("load") : "visible") as "visible" | "click" | "eager",
};
// Only exact origins ("https://docs.example.org") or an explicit "*"; an
// entry that is not an origin is left out (embed-origins.ts).
const origins = parseOrigins(q.get("origins") ?? "");
const allowed = origins.allowed.length > 0 ? origins.allowed : [location.origin];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const placeholder = $("placeholder");
const stageBox = $("stage-box");
const shield = $("shield");
const errorEl = $("embed-error");
const editorBox = $<HTMLDetailsElement>("editor-box");
const textarea = $<HTMLTextAreaElement>("yaml");

// State the tests read.
const state = {
  activated: false, loadedGen: 0, drawnGen: 0, playing: false, t: opts.t, lastReply: null as LoadReply | null, received: 0,
  cursor: -1, events: 0, simDone: false, caption: "", theme: "light" as "light" | "dark", peer: "", error: "",
  ignoredOrigins: origins.ignored,
  loads: 0, loadMs: 0, // load replies handled and the last one's time (the tests')
};
(window as unknown as { __schedplayEmbed: typeof state }).__schedplayEmbed = state;

let api: Bridge | null = null;
let text = "";
// The host sent a scenario: what the address names no longer counts.
let hostText = false;
let frame: HTMLIFrameElement | null = null;

// ---- messages out ----

// Messages wait here until the parent says hello; then they go to the
// origin it said it from, and only there. Of "time", only the latest waits.
const outbox: Msg[] = [];
const OUTBOX_MAX = 64;

function emit(type: string, body: Record<string, unknown> = {}): void {
  if (window.parent === window) return;
  const msg: Msg = { schedplay: 1, type, ...body };
  if (state.peer) {
    window.parent.postMessage(msg, state.peer);
    return;
  }
  if (type === "time") {
    const i = outbox.findIndex((m) => m.type === "time");
    if (i >= 0) outbox.splice(i, 1);
  }
  if (outbox.length < OUTBOX_MAX) outbox.push(msg);
}

// hello: the parent spoke from an allowed origin, so the embed may answer.
function hello(origin: string): void {
  if (state.peer) return;
  state.peer = origin;
  window.parent.postMessage({ schedplay: 1, type: "hello", engine: ENGINE_VERSION }, origin);
  for (const m of outbox.splice(0)) window.parent.postMessage(m, origin);
}

// showError says what went wrong in the frame, in polite live regions
// (role=status) that are in the page from the start. No message here is the
// failure of something the reader just did and must act on at once (a wrong
// example= or a damaged link is the page author's, a load the host's, a
// crash stops the embed whatever the reader does), and an alert would cut
// into what the reader is reading on the host page. A text that does not
// load also marks the editor invalid, described by the message: the reader
// who typed it hears it on the field, not in the middle of their typing.
function showError(message: string, invalid = false): void {
  state.error = message;
  errorEl.textContent = message;
  if (invalid) textarea.setAttribute("aria-invalid", "true");
  if (!state.activated) $("ph-error").textContent = message;
  emit("error", { message });
}

function clearError(): void {
  state.error = "";
  errorEl.textContent = "";
  textarea.removeAttribute("aria-invalid");
}

// ---- theme: the reader's preference unless the host chose one ----

const darkQuery = matchMedia("(prefers-color-scheme: dark)");
function applyTheme(): void {
  const t = opts.theme === "auto" ? (darkQuery.matches ? "dark" : "light") : opts.theme;
  state.theme = t;
  document.documentElement.dataset.theme = t;
  if (!api) return;
  api.setTheme(t);
  // A reader who asked for reduced motion gets cuts instead of glides.
  api.setMotion(matchMedia("(prefers-reduced-motion: reduce)").matches ? "reduce" : "full");
  const doc = frame?.contentDocument;
  if (doc?.body) doc.body.style.background = t === "dark" ? "#11151c" : "#f4f6fa";
}
darkQuery.addEventListener("change", applyTheme);
applyTheme();
translateWith(t);

// ---- follow the action: in a small frame the camera frames what each event
// involves (on by default); one click shows the whole cluster ----

const followBtn = $("c-follow");
let follow = true;
followBtn.addEventListener("click", () => {
  follow = !follow;
  followBtn.setAttribute("aria-pressed", String(follow));
  api?.setFollow(String(follow));
});

// ---- the stage ----

// loadText loads the text in steps (the page stays live while a large
// scenario loads); a newer load replaces one under way, which then answers
// cancelled and is dropped.
// typed: the reader's edit in the frame's editor, whose error waits for
// the typing to pause (edit-pace.ts), as the playground's does.
let loadSeq = 0;
async function loadText(yaml: string, typed = false): Promise<void> {
  text = yaml;
  if (textarea.value !== yaml) textarea.value = yaml;
  updateOpenFull();
  if (!api) return;
  if (!typed) pace.drop();
  const mine = ++loadSeq;
  const started = performance.now();
  player.paused = true;
  const reply = JSON.parse(await api.loadInSteps("scenario.yaml", yaml)) as LoadReply;
  if (mine !== loadSeq) return;
  player.paused = false;
  state.loadMs = performance.now() - started;
  pace.loaded(state.loadMs);
  if (reply.cancelled) return;
  state.loads++;
  state.lastReply = reply;
  if (reply.ok) {
    state.loadedGen = reply.gen;
    // Good news is said at once, and replaces an error held for the pause.
    clearError();
    pace.whenQuiet(clearError);
    captions = reply.lesson ? new Captions(reply.lesson) : null;
    captionShown = -2;
    player.start({ playing: want.playing, followEnd: false, stopped: reply.stopped, gen: reply.gen });
    controls.reset();
    if (want.t > 0) player.seekTime(want.t, want.playing);
    player.render(true);
  } else {
    const d = reply.diagnostics?.[0];
    const say = () => showError(d ? t("embed.line", { line: d.line, msg: d.msg }) : reply.error ?? t("embed.notLoaded"), true);
    if (typed) pace.whenQuiet(say);
    else say();
  }
  emit("loaded", { ok: reply.ok, summary: reply.summary, diagnostics: reply.diagnostics ?? [] });
}

// ---- playback: the playground's player (player.ts) ----

const timeEl = $("embed-time");
const captionEl = $("embed-caption");
let captions: Captions | null = null;
let captionShown = -2;
// What the host or the parameters asked for, applied to every load.
const want = { playing: opts.autoplay, t: opts.t };
let lastTimeSent = { t: -1, at: 0, playing: false };

const player = new Player({
  busy: () => pace.pending,
  onEvents: (events) => {
    captions?.add(events);
    controls.addEvents(events);
  },
  onRender: () => {
    const tl = player.tl;
    state.cursor = tl.cursor;
    state.events = tl.events.length;
    state.t = tl.now;
    state.playing = tl.playing;
    state.simDone = player.simDone;
    timeEl.textContent = `t=${fmtTime(tl.now)}`;
    controls.render();
    showCaption();
    // "time" at most 5 times a second while the time moves, and when it stops.
    const now = performance.now();
    const moved = tl.now !== lastTimeSent.t;
    if ((moved && now - lastTimeSent.at >= 200) || (lastTimeSent.playing && !tl.playing)) {
      lastTimeSent = { t: tl.now, at: now, playing: tl.playing };
      emit("time", { t: tl.now, playing: tl.playing, event: tl.cursor + 1, events: tl.events.length });
    }
  },
});

const controls = new Controls(player, $("controls"));
// The reader's captions arrived: the caption of the moment shows.
void captionText.ready.then(() => { if (captions) showCaption(); });

// showCaption shows the lesson's caption of the moment; a scenario without
// a lesson shows the last event applied, in the engine's words.
function showCaption(): void {
  const tl = player.tl;
  if (captions) {
    const i = captions.at(tl.cursor, tl.now);
    if (i === captionShown) return;
    const text = i >= 0 ? captionText.text(`${captions.lesson.name ?? ""}.caption.${i}`, captions.lesson.captions[i].text) : "";
    if (text === null) return; // the reader's captions are on their way (then shown)
    captionShown = i;
    captionLive();
    state.caption = text;
    captionEl.textContent = state.caption;
  } else {
    if (tl.cursor === captionShown) return;
    captionShown = tl.cursor;
    captionLive();
    const e = tl.events[tl.cursor];
    state.caption = e ? `${e.kind}${e.pod ? " " + e.pod : ""}${e.node ? " → " + e.node : ""}: ${e.reason}` : "";
    captionEl.replaceChildren();
    if (e) {
      const time = document.createElement("span");
      time.className = "ev-time";
      time.textContent = `t=${fmtTime(e.t)}`;
      captionEl.append(time, state.caption);
    }
  }
}

// The caption speaks (a polite live region) only while the reader is in
// the embed (the focus is in it, or in its canvas's frame): on a
// documentation page an embed playing by itself (autoplay, a host's play)
// would otherwise read each caption, or each event of a scenario without a
// lesson, into whatever the reader is reading. Asked as each caption
// changes: focus leaving the canvas's frame for the host page tells this
// window nothing.
function captionLive(): void {
  captionEl.setAttribute("aria-live", document.hasFocus() ? "polite" : "off");
}

function playback(kind: "play" | "pause" | "seek", t?: number): void {
  if (kind === "play") want.playing = true;
  if (kind === "pause") want.playing = false;
  if (kind === "seek") {
    want.t = t ?? 0;
    want.playing = false;
  }
  // Before the first load the wish waits for it (loadText applies it).
  if (api && state.lastReply?.ok) {
    if (kind === "play") player.play();
    if (kind === "pause") player.pause();
    if (kind === "seek") player.seekTime(want.t);
  } else {
    state.playing = want.playing;
    state.t = want.t;
  }
  emit("state", { playing: state.playing, t: kind === "seek" ? want.t : state.t });
}

function onEvent(json: string): void {
  const ev = JSON.parse(json) as BridgeEvent;
  switch (ev.type) {
    case "select":
      emit("selected", { kind: ev.kind, key: ev.key });
      break;
    case "drawn":
      state.drawnGen = ev.gen;
      break;
    case "panic":
    case "fatal":
      showError(t("embed.internalError", { message: ev.message.split("\n")[0] }));
      break;
  }
}

function attach(b: Bridge): void {
  if (api) return;
  api = b;
  api.setListener(onEvent);
  applyTheme();
  api.setFollow(String(follow));
  player.api = b;
  player.run();
  loadText(text);
  emit("ready", { engine: ENGINE_VERSION });
}
(window as unknown as { onSchedplayStage: (b: Bridge) => void }).onSchedplayStage = attach;

function activate(): void {
  if (state.activated) return;
  state.activated = true;
  placeholder.hidden = true;
  stageBox.hidden = false;
  controls.show();
  frame = document.createElement("iframe");
  frame.src = "stage.html";
  frame.title = t("ui.canvas");
  frame.addEventListener("load", () => {
    const b = (frame?.contentWindow as unknown as { schedplay?: Bridge } | null)?.schedplay;
    if (b) attach(b);
  });
  stageBox.prepend(frame);
  emit("activated");
}

// ---- the shield: the host page keeps its scroll until the reader clicks ----

shield.addEventListener("click", () => {
  shield.hidden = true;
});
document.documentElement.addEventListener("mouseleave", () => {
  shield.hidden = false;
});

// ---- messages in ----

window.addEventListener("message", (e: MessageEvent) => {
  if (e.source !== window.parent || window.parent === window) return;
  if (!allowed.includes("*") && !allowed.includes(e.origin)) return;
  const m = e.data as Partial<Msg> | null;
  if (!m || typeof m !== "object" || m.schedplay !== 1 || typeof m.type !== "string") return;
  state.received++;
  // Any request from an allowed parent is a hello too.
  hello(e.origin);
  switch (m.type) {
    case "hello":
      break;
    case "load":
      if (typeof m.yaml !== "string") return emit("error", { message: "load needs yaml (a string)", request: "load" });
      hostText = true;
      activate();
      loadText(m.yaml);
      break;
    case "activate":
      activate();
      break;
    case "play":
    case "pause":
      playback(m.type);
      break;
    case "seek":
      if (typeof m.t !== "number" || !Number.isFinite(m.t) || m.t < 0) {
        return emit("error", { message: "seek needs t (seconds, a number >= 0)", request: "seek" });
      }
      playback("seek", m.t);
      break;
    case "getState":
      emit("state", { playing: state.playing, t: state.t, loaded: state.lastReply?.ok ?? false, yaml: text });
      break;
    default:
      emit("error", { message: `unknown request ${m.type}`, request: m.type });
  }
});

// ---- editor ----

// Typing loads after the frame that shows the keystroke, at every
// keystroke while loads are cheap (an embed's example), once per burst
// where they are not; the error's words wait for a pause (edit-pace.ts).
const pace = new EditPace(pageClock, { load: () => void loadText(textarea.value, true), stale: stopStale });
textarea.readOnly = opts.readonly;
textarea.addEventListener("input", () => pace.edit());
// stopStale stops a load of a text the typing has left behind.
function stopStale(): void {
  player.paused = true;
  loadSeq++; // its reply is dropped
  api?.cancelLoad();
}
if (opts.editor !== "none") {
  editorBox.hidden = false;
  editorBox.open = opts.editor === "open";
}

// named is the example the address named and its text as fetched: while
// the embed shows it unedited, ↗ opens it as the course's lesson (every
// example is one, internal/course checks), with its questions and
// previous/next, at the moment on screen.
let named: { name: string; text: string } | null = null;

function updateOpenFull(): void {
  $<HTMLAnchorElement>("open-full").href = withFullLang(openFullHref());
}

function openFullHref(): string {
  const page = new URL("index.html", location.href);
  const lesson = named !== null && text === named.text;
  if (lesson) page.searchParams.set("lesson", named!.name);
  const tl = player.tl;
  // A lesson at its start opens as the course opens it, playing.
  if (lesson && tl.cursor < 0 && tl.now === 0) return page.href;
  const l = linkFor(page.href, { yaml: text, seed: 0, engine: ENGINE_VERSION, view: lesson ? viewOf(tl) : {} });
  return l.fits ? l.url : lesson ? page.href : "index.html";
}
// The moment is taken as the reader reaches for ↗ (a pointer, the focus,
// the click itself), not compressed into a link every frame.
for (const ev of ["pointerdown", "focus", "click"]) $("open-full").addEventListener(ev, updateOpenFull);

// withFullLang carries the embed's language to the full playground.
function withFullLang(href: string): string {
  if (lang === "en") return href;
  const u = new URL(href, location.href);
  u.searchParams.set("lang", lang);
  return u.href;
}

// ---- start ----

async function initialText(): Promise<string> {
  // lesson=: the playground's address names an example so
  // (index.html?lesson=NAME, every lesson being an example), and an author
  // who copies its query into an embed's must not get an empty cluster.
  const example = q.get("example") ?? q.get("lesson");
  if (example !== null) {
    // The list first: asking for a file that is not there would log a 404
    // in the console the host page's developers read.
    const names = (await (await fetch("examples/index.json")).json()) as string[];
    if (!names.includes(`${example}.yaml`)) {
      const like = similarNames(example, names.map((n) => n.replace(/\.yaml$/, "")));
      throw new Error(sentences(t("embed.noExample", { name: JSON.stringify(example) }),
        like.length ? t("embed.didYouMean", { names: joinNames(like, lang, "or") }) : "", t("embed.galleryLists")));
    }
    const r = await fetch(`examples/${example}.yaml`);
    if (!r.ok) throw new Error(t("embed.exampleFailed", { name: example, status: r.status }));
    named = { name: example, text: await r.text() };
    return named.text;
  }
  if (isPermalink(location.hash)) {
    const d = decode(location.hash);
    if (d.ok) return d.link.yaml;
    throw new Error(d.error);
  }
  return "";
}

async function start(): Promise<void> {
  watchHeight();
  registerWorker();
  let failed = false;
  try {
    const got = await initialText();
    if (hostText) return;
    text = got;
  } catch (err) {
    if (hostText) return;
    failed = true;
    showError(String(err instanceof Error ? err.message : err));
  }
  textarea.value = text;
  updateOpenFull();
  const meta = lessonMeta(text, "scenario.yaml");
  $("ph-title").textContent = text ? meta.title : t("embed.title");
  $("ph-sub").textContent = meta.summary;
  // Nothing to play: the message stays in view instead of an empty canvas.
  if (failed) {
    $("activate").hidden = true;
    return;
  }
  if (opts.load === "eager") return activate();
  $("activate").addEventListener("click", activate);
  if (opts.load === "visible" && "IntersectionObserver" in window) {
    // Inside a frame the observer measures against the top page's viewport.
    const io = new IntersectionObserver((entries) => {
      if (entries.some((en) => en.isIntersecting)) {
        io.disconnect();
        activate();
      }
    }, { rootMargin: "200px" });
    io.observe(document.documentElement);
  }
}

// ---- height: fixed, or (height=auto) what the content needs ----

function watchHeight(): void {
  if (!opts.autoHeight) {
    emit("resize", { height: opts.height });
    return;
  }
  document.documentElement.classList.add("auto-height");
  let sent = 0;
  new ResizeObserver(() => {
    const h = Math.ceil($("embed").getBoundingClientRect().height);
    if (h !== sent) {
      sent = h;
      emit("resize", { height: h });
    }
  }).observe($("embed"));
}

// ---- keys: the controls' shortcuts while the focus is in the embed ----

document.addEventListener("keydown", (e) => controls.key(e));

start();
