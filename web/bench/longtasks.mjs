// Loads and edits of large scenarios in headless Chromium, with the long
// tasks (PerformanceObserver "longtask", page and stage frame) each one
// caused: a newly pasted 500 nodes / 2,000 pods, edits typed in a
// 500-node / 5,000-pod scenario (one pod's cpu request, a comment line)
// and a 1 MB scenario's load, each to its first frame and to its end
// state. Not a test: figures vary by machine
// (docs/performance-web.md).
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/longtasks.mjs [runs]
import { launch, longestTask as longest, open, watchLongTasks as watch } from "../e2e/helpers.mjs";
import { cluster, megabyte, selectCpuRequest } from "./scenarios.mjs";

const runs = Number(process.argv[2] ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${Math.round(x)} ms`;

// load sets the editor's text and waits for its end state on the canvas;
// it returns the page's edit figures (ms since the reload started).
async function load(page, text) {
  await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
  await page.evaluate((t) => window.__schedplaySetText(t), text);
  await page.waitForFunction(() => window.__schedplay.editToFrameMs > 0 && window.__schedplay.simDone, null, { timeout: 180000, polling: 20 });
  return page.evaluate(() => ({ frame: window.__schedplay.editToFrameMs, ...window.__schedplay.editMarks }));
}

const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
const page = await open(context);

// first is the first frame showing the loaded scenario (its t=0 view),
// frame the end state's, both from the load's start.
// committed is when the first frame's rendering step is over, its commit
// (SwiftShader's drawing of the canvas here) included; painted the start
// of the frame after it, which the player's callbacks come before.
const painted = (figs) => `, committed ${ms(median(figs.map((f) => f.committed)))} (${figs.map((f) => Math.round(f.committed)).join(", ")})` +
  `, painted ${ms(median(figs.map((f) => f.painted)))} (${figs.map((f) => Math.round(f.painted)).join(", ")})`;
const report = (label, figs, tasks) => console.log(`${label}: first frame median ${ms(median(figs.map((f) => f.first)))}` +
  ` (${figs.map((f) => Math.round(f.first)).join(", ")})${painted(figs)}, end state ${ms(median(figs.map((f) => f.frame)))}` +
  ` (${figs.map((f) => Math.round(f.frame)).join(", ")}), load call ${ms(median(figs.map((f) => f.load)))}; longest task ${ms(Math.max(...tasks.map((t) => t.max)))}, ${median(tasks.map((t) => t.n))} long tasks`);

// A new paste each run: the names change, so no document is cached.
{
  const figs = [], tasks = [];
  for (let i = 0; i < runs; i++) {
    await load(page, "# blank\n");
    await watch(page);
    figs.push(await load(page, cluster(500, 2000).replaceAll("pod-", `p${i}-`)));
    tasks.push(await longest(page));
  }
  report("paste 500 nodes / 2,000 pods", figs, tasks);
}

// Edits in a 500-node / 5,000-pod scenario, typed: one pod's cpu request
// changed (the text of pod-2500's request selected, a new value typed),
// and a comment line added at the end. The page reloads on every change
// and follows the edited run to its end state: "first" is its first frame
// (the edited scenario's t=0 view), "end" the frame showing the end state,
// both from the reload's start (after the keystroke's frame); "key" is
// from the keystroke's event to the first frame (the page's key mark
// added), "change" from the editor's change (its waited mark); between
// the two, the editor handles the keystroke.
{
  const text = cluster(500, 5000);
  await load(page, text);
  // Each edit's place is selected (and scrolled into view) before the
  // long tasks are watched; then the text is typed.
  const edits = {
    "one pod's cpu request": {
      place: () => selectCpuRequest(page),
      type: (i) => page.keyboard.insertText(`${101 + i}m`),
    },
    "a comment line": {
      place: async () => {
        await page.click(".cm-content");
        await page.keyboard.press("Control+End");
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(r, { timeout: 1000 })))));
      },
      type: (i) => page.keyboard.insertText(`# edit ${i}\n`),
    },
  };
  for (const [what, edit] of Object.entries(edits)) {
    const figs = [], tasks = [];
    for (let i = 0; i < runs; i++) {
      await edit.place();
      await watch(page);
      await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
      await edit.type(i);
      await page.waitForFunction(() => window.__schedplay.editToFrameMs > 0 && window.__schedplay.simDone, null, { timeout: 180000, polling: 20 });
      figs.push(await page.evaluate(() => ({ frame: window.__schedplay.editToFrameMs, kept: window.__schedplay.lastReply?.kept === true, ...window.__schedplay.editMarks })));
      tasks.push(await longest(page));
    }
    const key = figs.map((f) => f.key + f.first), change = figs.map((f) => f.waited + f.first);
    console.log(`edit in 500 nodes / 5,000 pods, ${what}: key to first frame median ${ms(median(key))} (${key.map(Math.round).join(", ")}),` +
      ` change to first frame median ${ms(median(change))}, keystroke to change median ${ms(median(figs.map((f) => f.key - f.waited)))},` +
      ` first frame median ${ms(median(figs.map((f) => f.first)))} (${figs.map((f) => Math.round(f.first)).join(", ")})${painted(figs)},` +
      ` end state ${ms(median(figs.map((f) => f.frame)))} (${figs.map((f) => Math.round(f.frame)).join(", ")}), load call ${ms(median(figs.map((f) => f.load)))}` +
      `${figs.some((f) => f.kept) ? ` (the run kept ${figs.filter((f) => f.kept).length} of ${figs.length} times)` : ""};` +
      ` longest task ${ms(Math.max(...tasks.map((t) => t.max)))}, ${median(tasks.map((t) => t.n))} long tasks`);
  }
}

// 1 MB of YAML: 500 nodes and as many pods as reach a megabyte.
{
  const { text, pods } = megabyte();
  const figs = [], tasks = [];
  for (let i = 0; i < runs; i++) {
    await load(page, "# blank\n");
    await watch(page);
    figs.push(await load(page, text.replaceAll("pod-", `q${i}-`)));
    tasks.push(await longest(page));
  }
  report(`1 MB (${(text.length / 1e6).toFixed(2)} MB, 500 nodes / ${pods} pods)`, figs, tasks);
}
await browser.close();
