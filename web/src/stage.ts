// Boots the wasm build inside the stage frame. ebiten owns this document
// (it appends its canvas to <body>), which is why the game lives in a frame
// beside the editor rather than in the editor's page.
import type { Bridge, WarmReport } from "./bridge";
import { replaceScreenFills, type ScreenClears } from "./screen-clear";
import { canvasWords, lang, match, t, type Lang } from "./messages";

declare const Go: { new (): { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void> } };

const w = window as unknown as {
  schedplayReady?: (api: Bridge) => void;
  schedplayWarm?: () => Promise<WarmReport>;
  parent: Window & { onSchedplayStage?: (api: Bridge) => void };
};

// Start-up moments (ms since the epoch, comparable across frames) for the
// performance bench (web/bench): script start, wasm compiled and
// instantiated, Go's main ready.
const marks: Record<string, number> = {};
const mark = (name: string) => { marks[name] = performance.timeOrigin + performance.now(); };
(window as unknown as { __stageMarks: typeof marks }).__stageMarks = marks;
mark("script");
// The first animation frame ebiten asks for (its game loop starting).
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb: FrameRequestCallback) => raf((t) => {
  if (!marks.firstFrameCallback) mark("firstFrameCallback");
  cb(t);
});

// ebiten asks for a WebGL2 context without saying antialias, which WebGL
// then turns on: the canvas gets a multisampled back buffer that every
// presented frame clears, draws and resolves. ebiten only ever draws one
// pixel-aligned quad into it (its offscreen screen), so the samples change
// no pixel, and under a software rasteriser they cost a quarter of a frame
// at 500 nodes (measured for docs/performance-web.md).
// The context also gets screen-clear.ts's rewrite of ebiten's screen clear.
// The counter is for the browser tests.
const screenClears = new WeakMap<object, ScreenClears>();
(window as unknown as { __screenClears: () => number }).__screenClears = () => {
  const gl = document.querySelector("canvas")?.getContext("webgl2");
  return (gl && screenClears.get(gl)?.replaced) ?? -1;
};
const getContext = HTMLCanvasElement.prototype.getContext as (this: HTMLCanvasElement, id: string, attrs?: unknown) => RenderingContext | null;
(HTMLCanvasElement.prototype as unknown as { getContext: typeof getContext }).getContext = function (id, attrs) {
  if (id === "webgl2" || id === "webgl") attrs = { ...(attrs as object | undefined), antialias: false };
  const ctx = getContext.call(this, id, attrs);
  if (id === "webgl2" && ctx && !screenClears.has(ctx)) screenClears.set(ctx, replaceScreenFills(ctx as WebGL2RenderingContext));
  return ctx;
};

// ebiten prevents the default of every key pressed on its canvas, Tab
// included, which trapped the keyboard in the frame. Tab is taken away from
// it (a capturing listener runs before the canvas's own), so that Tab and
// Shift+Tab move on to the page's controls as everywhere else.
window.addEventListener("keydown", (e) => {
  if (e.key === "Tab") e.stopImmediatePropagation();
}, true);
// ebiten reads a wheel event's delta as pixels whatever its unit: a
// browser that counts in lines (Firefox) or pages would zoom by a hair. Such
// events are replaced by the same turn in pixels (a line is about 33 px,
// as Chrome scrolls).
window.addEventListener("wheel", (e) => {
  if (e.deltaMode === WheelEvent.DOM_DELTA_PIXEL || !e.isTrusted || !(e.target instanceof HTMLCanvasElement)) return;
  e.stopImmediatePropagation();
  e.preventDefault();
  const k = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 33 : 800;
  e.target.dispatchEvent(new WheelEvent("wheel", {
    deltaX: e.deltaX * k, deltaY: e.deltaY * k, deltaMode: WheelEvent.DOM_DELTA_PIXEL,
    clientX: e.clientX, clientY: e.clientY, screenX: e.screenX, screenY: e.screenY,
    ctrlKey: e.ctrlKey, shiftKey: e.shiftKey, altKey: e.altKey, metaKey: e.metaKey, bubbles: true, cancelable: true,
  }));
}, { capture: true, passive: false });

// The frame speaks its page's language (the page's address has lang=, the
// frame's does not); a page of another origin keeps the frame's own choice.
function pageLang(): Lang {
  try {
    return match(window.parent.document.documentElement.lang) ?? lang;
  } catch {
    return lang;
  }
}

// The canvas gets a name for assistive technology: what it is and how to
// drive it with keys (the frame has the page's title, the canvas none).
new MutationObserver((_, obs) => {
  const c = document.querySelector("canvas");
  if (!c) return;
  c.setAttribute("role", "application");
  c.setAttribute("tabindex", "0"); // ebiten's 1 would jump the tab order
  c.setAttribute("aria-label", t("stage.canvas", {}, undefined, pageLang()));
  obs.disconnect();
}).observe(document.documentElement, { childList: true, subtree: true });

// The bridge calls this once window.schedplay exists. The canvas's words
// are in the page's language before anything is drawn with them.
w.schedplayReady = (api: Bridge) => {
  mark("ready");
  api.setWords(canvasWords(pageLang()));
  w.parent.onSchedplayStage?.(api);
};

// schedplayWarm has a worker do the engine's warm-up (the page calls it
// once, after the first frame): it runs this frame's own compiled module,
// whose optimized code, compiled there on another core, is then this
// frame's too (warm-worker.ts). Without workers, or if it fails, the
// report says why and the page's own warm-up does it all.
let compiled: WebAssembly.Module | undefined;
w.schedplayWarm = () => new Promise<WarmReport>((resolve) => {
  if (!compiled || typeof Worker === "undefined") return resolve({ ok: false, error: "no worker" });
  let worker: Worker;
  try {
    worker = new Worker(ASSETS.warmWorker);
  } catch (err) {
    return resolve({ ok: false, error: String(err) });
  }
  const done = (r: WarmReport) => {
    worker.terminate(); // its memory goes with it
    resolve(r);
  };
  worker.onmessage = (e: MessageEvent<WarmReport>) => done(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    done({ ok: false, error: e.message || "the worker did not start" });
  };
  worker.postMessage({ exec: ASSETS.exec, module: compiled });
});

async function boot(): Promise<void> {
  const go = new Go();
  let r: WebAssembly.WebAssemblyInstantiatedSource;
  try {
    r = await WebAssembly.instantiateStreaming(fetch(ASSETS.wasm), go.importObject);
  } catch {
    // Some static hosts serve .wasm without application/wasm.
    const bytes = await (await fetch(ASSETS.wasm)).arrayBuffer();
    r = await WebAssembly.instantiate(bytes, go.importObject);
  }
  compiled = r.module;
  mark("instantiated");
  await go.run(r.instance);
}

boot().catch((err) => {
  const p = document.createElement("pre");
  p.lang = pageLang();
  p.textContent = t("stage.startFailed", { error: String(err) }, undefined, p.lang as Lang);
  p.style.cssText = "color:#b91c1c;font:14px system-ui;padding:16px;white-space:pre-wrap";
  document.body.append(p);
});
