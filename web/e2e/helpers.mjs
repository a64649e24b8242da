// Helpers for the browser tests: launching Debian's Chromium, reading the
// page's probe, driving the editor and measuring canvas pixels.
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const url = process.env.SCHEDPLAY_URL ?? "http://127.0.0.1:8080/";
export const shots = join(dirname(fileURLToPath(import.meta.url)), "screenshots");
mkdirSync(shots, { recursive: true });

// navigationTimeout bounds a page load: on an idle machine the playground
// loads in about a second, but on a shared two-core machine under heavy load
// starting the engine took 30 to 60 s, past Playwright's 30 s default.
const navigationTimeout = 120000;

// SCHEDPLAY_CHROME_ARGS adds switches for a bench's trial (V8's flags in
// --js-flags=..., say), separated by spaces.
const extraArgs = (process.env.SCHEDPLAY_CHROME_ARGS ?? "").split(" ").filter(Boolean);

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    // Keep Chromium from resolving Google hosts; the page is on 127.0.0.1.
    args: ["--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1", ...extraArgs],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultNavigationTimeout(navigationTimeout);
    return context;
  };
  return browser;
}

// open loads the playground in a fresh page and waits until a scene is on
// the canvas. It fails on page errors and JavaScript dialogs (an injected
// onerror=alert would open one).
// open loads the playground (search: its query, "?lang=zh-CN") and waits
// for the first scenario's frame.
export async function open(context, search = "") {
  const page = watch(await context.newPage());
  await page.goto(new URL(search, url).toString());
  await firstFrame(page);
  return page;
}

// firstFrame waits until a page just navigated has drawn the scenario it
// loaded first.
export const firstFrame = (page) => page.waitForFunction(
  () => window.__schedplay?.loadedGen >= 1 && window.__schedplay.drawnGen >= window.__schedplay.loadedGen,
  null,
  { timeout: 90000, polling: 50 },
);

// watch collects a page's errors and JavaScript dialogs in page.errors.
export function watch(page) {
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("dialog", async (d) => {
    page.errors.push(`dialog: ${d.message()}`);
    await d.dismiss();
  });
  return page;
}

// cores has a context's pages see n cores (navigator.hardwareConcurrency),
// which decides when the warm-up worker starts (web/src/main.ts).
export const cores = (context, n) => context.addInitScript((c) => Object.defineProperty(Navigator.prototype, "hardwareConcurrency", { get: () => c }), n);

export const probe = (page) => page.evaluate(() => ({ ...window.__schedplay }));

// bridge calls a method of window.schedplay inside the stage frame.
export async function bridge(page, method, ...args) {
  const frame = page.frame({ url: /stage\.html/ });
  const out = await frame.evaluate(([m, a]) => window.schedplay[m](...a), [method, args]);
  return JSON.parse(out);
}

export async function editorText(page) {
  return page.evaluate(() => window.__schedplayText());
}

// edit types text into the editor after pressing keys (for example
// Control+End), then waits until the page has reloaded the scenario
// (successfully or not). A reload still pending from an earlier edit may
// land in between and count as one: the wait is also for no edit pending,
// so the load it ends on is of this text.
async function edit(page, keys, text) {
  const before = (await probe(page)).loads;
  // Focus, not a click at the content's centre: a long document's centre
  // is below the editor's view, and scrolling to it while a lesson's panel
  // still grows can leave the point under another pane (seen under load).
  await page.focus(".cm-content");
  await page.keyboard.press(keys);
  await page.keyboard.insertText(text);
  await page.waitForFunction((b) => window.__schedplay.loads > b && !window.__schedplay.editPending, before, { polling: 50 });
}

// appendText types at the end of the document.
export const appendText = (page, text) => edit(page, "Control+End", text);

// replaceText swaps the whole document.
export const replaceText = (page, text) => edit(page, "Control+A", text);

// settled waits until the canvas shows the last scene the page asked for
// (selecting a pod makes newer ones, with its spread overlay) and its
// animations (0.7 s at most) are done.
export async function settled(page) {
  await page.waitForFunction(() => window.__schedplay.drawnGen >= window.__schedplay.loadedGen, null, { polling: 50 });
  await page.waitForTimeout(800);
}

// ended waits until the first run, which plays on its own, has reached its
// last event and the canvas has settled.
export async function ended(page) {
  await page.waitForFunction(() => { const p = window.__schedplay; return p.simDone && p.events > 0 && p.cursor >= p.events - 1; }, null, { polling: 100, timeout: 120000 });
  await settled(page);
}

// key holds a key across a few of ebiten's ticks (it samples the keyboard
// once per tick), then releases it.
export async function key(page, k) {
  await page.keyboard.down(k);
  await page.waitForTimeout(80);
  await page.keyboard.up(k);
  await page.waitForTimeout(50);
}

// stageShot screenshots the canvas frame.
// It clips a page screenshot rather than using the element's, which would
// wait for the frame to be "stable" across animation frames.
export async function stageShot(page, name) {
  const clip = await page.locator("#stage").boundingBox();
  return page.screenshot({ path: join(shots, name), clip });
}

// stageFits reads the canvas's frame: ebiten's canvas as large as the frame
// and its drawing buffer sized to it (it re-lays out on the frame's resize).
// settledStage waits until the frame is want ([width, height], CSS px) and
// the canvas has re-laid out to it.
export const stageFits = (page) => page.frame({ url: /stage\.html/ }).evaluate(() => {
  const c = document.querySelector("canvas");
  return { frame: [innerWidth, innerHeight], css: [c.clientWidth, c.clientHeight], buffer: [c.width, c.height], dpr: devicePixelRatio };
});

export async function settledStage(page, want) {
  await page.waitForFunction(([w, h]) => {
    const f = document.getElementById("stage").contentWindow;
    const c = f.document.querySelector("canvas");
    return c && Math.abs(f.innerHeight - h) <= 1 && Math.abs(f.innerWidth - w) <= 1 &&
      Math.abs(c.width - Math.round(c.clientWidth * f.devicePixelRatio)) <= 2 &&
      Math.abs(c.height - Math.round(c.clientHeight * f.devicePixelRatio)) <= 2 &&
      Math.abs(c.clientHeight - f.innerHeight) <= 1;
  }, want, { timeout: 5000, polling: 50 }).catch(async () => assert.fail(`the canvas did not re-lay out to ${want}: ${JSON.stringify(await stageFits(page))}`));
}

// inBlankPage runs fn(pixelArrays, arg) in a blank page (no CSP there) with
// the RGBA pixels of each PNG.
async function inBlankPage(context, pngs, fn, arg) {
  const page = await context.newPage();
  try {
    return await page.evaluate(
      async ([b64s, src, a]) => {
        const decode = async (b64) => {
          const img = new Image();
          img.src = "data:image/png;base64," + b64;
          await img.decode();
          const c = new OffscreenCanvas(img.width, img.height);
          const ctx = c.getContext("2d");
          ctx.drawImage(img, 0, 0);
          return ctx.getImageData(0, 0, img.width, img.height).data;
        };
        const pixels = await Promise.all(b64s.map(decode));
        // The function arrives as source text: evaluate cannot take closures.
        return (0, eval)(`(${src})`)(pixels, a);
      },
      [pngs.map((p) => p.toString("base64")), fn.toString(), arg],
    );
  } finally {
    await page.close();
  }
}

// pixelStats counts pixels near each of the given colours ("#rrggbb") and
// pixels different from the first one (the background).
export function pixelStats(context, png, colors = []) {
  return inBlankPage(context, [png], ([d], cols) => {
    const rgb = cols.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));
    const counts = cols.map(() => 0);
    const [br, bg, bb] = [d[0], d[1], d[2]];
    let other = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - br) + Math.abs(d[i + 1] - bg) + Math.abs(d[i + 2] - bb) > 24) other++;
      rgb.forEach(([r, g, b], k) => {
        if (Math.abs(d[i] - r) + Math.abs(d[i + 1] - g) + Math.abs(d[i + 2] - b) <= 12) counts[k]++;
      });
    }
    return { total: d.length / 4, other, counts, background: [br, bg, bb] };
  }, colors);
}

// diffFraction is the share of pixels that differ between two PNGs of the same size.
export function diffFraction(context, a, b) {
  return inBlankPage(context, [a, b], ([p, q]) => {
    if (p.length !== q.length) return 1;
    let n = 0;
    for (let i = 0; i < p.length; i += 4) {
      if (p[i] !== q[i] || p[i + 1] !== q[i + 1] || p[i + 2] !== q[i + 2]) n++;
    }
    return n / (p.length / 4);
  });
}

// idbDraft reads a key of the playground's drafts in IndexedDB
// (web/src/drafts-idb.ts): "schedplay.draft" or "schedplay.draft.previous".
export function idbDraft(page, key) {
  return page.evaluate((k) => new Promise((resolve, reject) => {
    const r = indexedDB.open("schedplay", 1);
    r.onerror = () => reject(r.error);
    r.onsuccess = () => {
      const g = r.result.transaction("drafts", "readonly").objectStore("drafts").get(k);
      g.onsuccess = () => { resolve(g.result ?? null); r.result.close(); };
      g.onerror = () => reject(g.error);
    };
  }), key);
}

// watchLongTasks starts collecting the long tasks (PerformanceObserver
// "longtask") of the page and its stage frame.
export async function watchLongTasks(page) {
  for (const f of page.frames()) {
    await f.evaluate(() => {
      window.__longTasks = [];
      if (window.__longObserver) return;
      window.__longObserver = new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => e.duration)));
      window.__longObserver.observe({ type: "longtask" });
    });
  }
}

// longestTask is the longest task since watchLongTasks, over the page and
// its frames, and how many long tasks there were.
export async function longestTask(page) {
  let max = 0, n = 0;
  for (const f of page.frames()) {
    const tasks = await f.evaluate(() => window.__longTasks ?? []);
    n += tasks.length;
    for (const d of tasks) max = Math.max(max, d);
  }
  return { max, n };
}

// axe runs axe-core in a frame of the page (the page's own by default) and
// lists its serious and critical violations. The context needs bypassCSP:
// axe-core comes in as a script tag.
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
// within: a selector of the part to check, the whole document without one.
export async function axe(page, frame = page.mainFrame(), within = "") {
  await frame.addScriptTag({ path: axePath });
  const r = await frame.evaluate((sel) => window.axe.run(sel ? { include: [sel] } : document, { resultTypes: ["violations"] }), within);
  return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
}
