// A fresh browser's first paste: each run starts Chromium anew, opens
// the playground, waits as a person finding their YAML would (delay ms
// after the first frame, 20,000 by default: the default scenario plays
// some 15 s, and the warm-up waits for it), then pastes 500 nodes / 2,000
// pods and records its first frame, painted frame, end state and long
// tasks, and the warm-up's figures (its idle slices, their time, the
// longest, when it was done; its worker's report). Not a test: figures vary by machine
// (docs/performance-web.md). SCHEDPLAY_CORES=N has the page see N cores
// (navigator.hardwareConcurrency), which decides when the worker starts.
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/cold-paste.mjs [runs] [delay]
import { readFileSync } from "node:fs";
import { cores, launch, longestTask, open, watchLongTasks } from "../e2e/helpers.mjs";
import { cluster } from "./scenarios.mjs";

const runs = Number(process.argv[2] ?? 3);
const delay = Number(process.argv[3] ?? 20000);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];

for (let i = 0; i < runs; i++) {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    if (process.env.SCHEDPLAY_CORES) await cores(context, Number(process.env.SCHEDPLAY_CORES));
    const page = await open(context);
    // FOCUS_AT=ms clicks into the editor that long after the first frame,
    // as a person about to paste does.
    if (process.env.FOCUS_AT) {
      await page.waitForTimeout(Number(process.env.FOCUS_AT));
      await page.locator("#editor .cm-content").click();
      await page.waitForTimeout(delay - Number(process.env.FOCUS_AT));
    } else await page.waitForTimeout(delay);
    const warm = await page.evaluate(() => ({ ...window.__schedplay.warm }));
    await watchLongTasks(page);
    await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
    await page.evaluate((t) => window.__schedplaySetText(t), cluster(500, 2000));
    await page.waitForFunction(() => window.__schedplay.editToFrameMs > 0 && window.__schedplay.simDone, null, { timeout: 180000, polling: 20 });
    const f = await page.evaluate(() => ({ frame: window.__schedplay.editToFrameMs, ...window.__schedplay.editMarks }));
    const t = await longestTask(page);
    const startup = await page.evaluate(() => window.__schedplay.startup);
    console.log(JSON.stringify({
      first: Math.round(f.first), painted: Math.round(f.painted), end: Math.round(f.frame), load: Math.round(f.load),
      longest: Math.round(t.max), longTasks: t.n, firstLoad: Math.round(startup.firstLoadMs),
      // The warm-up as it stood at the paste (undefined: a build without one).
      warmSlices: warm.slices, warmMs: warm.busyMs === undefined ? undefined : Math.round(warm.busyMs),
      warmLongest: warm.maxMs === undefined ? undefined : Math.round(warm.maxMs),
      warmDone: warm.doneAt === undefined ? undefined : warm.doneAt > 0 ? Math.round(warm.doneAt - startup.attach) : "no",
      // The worker's part (undefined: a build without one): its report and
      // when it came, from the stage's start.
      worker: warm.worker === undefined ? undefined : warm.worker.doneAt > 0
        ? { ...warm.worker, startedAt: Math.round(warm.worker.startedAt - startup.attach), doneAt: Math.round(warm.worker.doneAt - startup.attach) } : "no",
      loadavg: loadavg(),
    }));
  } finally {
    await browser.close();
  }
}
