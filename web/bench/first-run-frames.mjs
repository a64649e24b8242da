// The first run's frames: opens the playground in a fresh browser and
// records the stage frame's animation-frame intervals for 8 s from its
// first frame, while the default scenario plays (and, with cores to
// spare, the warm-up worker runs: SCHEDPLAY_CORES=N has the page see N
// cores). Prints the frames, how many took over 20 and 50 ms, the 95th
// percentile and the longest, per run. Not a test: figures vary by
// machine (docs/performance-web.md).
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/first-run-frames.mjs [runs]
import { readFileSync } from "node:fs";
import { cores, launch, open } from "../e2e/helpers.mjs";

const runs = Number(process.argv[2] ?? 3);
for (let i = 0; i < runs; i++) {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    if (process.env.SCHEDPLAY_CORES) await cores(context, Number(process.env.SCHEDPLAY_CORES));
    const page = await open(context);
    const stamps = await page.frame({ url: /stage\.html/ }).evaluate(() => new Promise((resolve) => {
      const ts = [];
      const end = performance.now() + 8000;
      const next = (t) => { ts.push(t); if (t < end) requestAnimationFrame(next); else resolve(ts); };
      requestAnimationFrame(next);
    }));
    const iv = stamps.slice(1).map((t, j) => t - stamps[j]).sort((a, b) => a - b);
    const worker = await page.evaluate(() => window.__schedplay.warm.worker);
    console.log(JSON.stringify({
      frames: iv.length, over20: iv.filter((x) => x > 20).length, over50: iv.filter((x) => x > 50).length,
      p95: Math.round(iv[Math.floor(iv.length * 0.95)] * 10) / 10, longest: Math.round(iv[iv.length - 1]),
      workerStarted: worker ? worker.startedAt > 0 : undefined,
      loadavg: readFileSync("/proc/loadavg", "utf8").split(" ")[0],
    }));
  } finally {
    await browser.close();
  }
}
