// Records a Chrome trace of one large load or edit and prints its long
// tasks: each RunTask over the threshold with the trace events and the
// CPU profile's functions (self time) inside it. For finding what a long
// task is made of (docs/performance-web.md); build the wasm without -s
// (function names) for the profile to name Go functions.
// TRACE=0 only lists the long tasks; PROFILE=0 traces without the CPU
// profiler (which doubles the tasks' times), naming each task's functions
// by their script position instead; REDUCE=1 runs with reduced motion.
//   SCHEDPLAY_URL=... node bench/trace-tasks.mjs edit|paste|mb [threshold ms] [trace.json]
import { writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { launch, open, watchLongTasks } from "../e2e/helpers.mjs";
import { cluster, megabyte, selectCpuRequest } from "./scenarios.mjs";

const what = process.argv[2] ?? "edit";
const threshold = Number(process.argv[3] ?? 50);
const out = process.argv[4];

const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1400, height: 850 }, reducedMotion: process.env.REDUCE ? "reduce" : "no-preference" });
const page = await open(context);
const settle = () => page.waitForFunction(() => window.__schedplay.editToFrameMs > 0 && window.__schedplay.simDone, null, { timeout: 180000, polling: 20 });
async function load(text) {
  await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
  await page.evaluate((t) => window.__schedplaySetText(t), text);
  await settle();
}
let act;
if (what === "edit") {
  await load(cluster(500, 5000));
  await selectCpuRequest(page); // before the trace: the edit alone is traced
  act = async () => {
    await page.keyboard.insertText("105m");
    await settle();
  };
} else {
  const text = what === "mb" ? megabyte().text : cluster(500, 2000);
  await load("# blank\n");
  act = () => load(text.replaceAll("pod-", "t-"));
}
await page.waitForTimeout(500);
await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
await watchLongTasks(page);
const tracing = process.env.TRACE !== "0";
if (tracing) await browser.startTracing(page, {
  categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "toplevel", "v8",
    ...(process.env.PROFILE === "0" ? [] : ["disabled-by-default-v8.cpu_profiler"])],
});
await act();
const marks = await page.evaluate(() => ({ frame: window.__schedplay.editToFrameMs, ...window.__schedplay.editMarks }));
// The page's observer sees the stage frame's tasks too (one thread).
const long = await page.evaluate(() => window.__longTasks);
console.log(`${what}: long tasks ${long.map(Math.round).join(" ")}; marks ${JSON.stringify(marks)}`);
if (!tracing) {
  await browser.close();
  process.exit(0);
}
const buf = await browser.stopTracing();
await browser.close();
if (out) writeFileSync(out, buf);
const events = JSON.parse(buf.toString()).traceEvents;
const thread = new Map();
for (const e of events) if (e.name === "thread_name") thread.set(`${e.pid}:${e.tid}`, e.args.name);
const threadOf = (e) => thread.get(`${e.pid}:${e.tid}`) ?? "";

// The CPU profile's samples: each ProfileChunk carries nodes (by id, per
// profile) and samples with the time since the one before.
const nodes = new Map(), samples = [], clock = new Map();
for (const e of events) if (e.name === "Profile") clock.set(`${e.pid}:${e.id}`, e.args.data.startTime);
for (const e of events) {
  if (e.name !== "ProfileChunk") continue;
  const key = `${e.pid}:${e.id}`;
  const c = e.args.data.cpuProfile ?? {};
  for (const n of c.nodes ?? []) nodes.set(`${key}:${n.id}`, n);
  const deltas = e.args.data.timeDeltas ?? [];
  (c.samples ?? []).forEach((s, i) => {
    const t = (clock.get(key) ?? 0) + (deltas[i] ?? 0);
    clock.set(key, t);
    samples.push({ pid: e.pid, node: `${key}:${s}`, t, d: deltas[i] ?? 0 });
  });
}

// A bundle's position as its source's (the bundles are minified, with
// linked source maps beside them).
const maps = new Map();
for (const e of events) {
  const url = e.name === "FunctionCall" ? e.args?.data?.url : undefined;
  if (!url || maps.has(url) || !url.startsWith("http")) continue;
  maps.set(url, null);
  try {
    maps.set(url, new SourceMap(await (await fetch(`${url}.map`)).json()));
  } catch { /* no map: the bundle's own position */ }
}
function where(d) {
  const m = maps.get(d.url);
  const at = m?.findEntry(Math.max(0, (d.lineNumber ?? 1) - 1), Math.max(0, (d.columnNumber ?? 1) - 1));
  if (at?.originalSource) return `${at.originalSource.split("/").slice(-2).join("/")}:${at.originalLine + 1}`;
  return `${d.functionName || "(anonymous)"}@${(d.url ?? "").split("/").pop()}:${d.lineNumber ?? ""}`;
}

const ms = (us) => (us / 1000).toFixed(1);
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, d]) => `${n} ${ms(d)}`).join(", ");
const t0 = Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
const tasks = events.filter((e) => e.name === "RunTask" && e.ph === "X" && e.dur >= threshold * 1000 && threadOf(e) === "CrRendererMain");
console.log(`${tasks.length} tasks of the page's thread over ${threshold} ms`);
for (const task of tasks) {
  const end = task.ts + task.dur;
  const inside = (e) => e.ph === "X" && e.ts >= task.ts && e.ts + e.dur <= end;
  const byName = new Map();
  for (const e of events) {
    if (e !== task && e.pid === task.pid && e.tid === task.tid && inside(e) && e.dur >= 2000) byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur);
  }
  // A commit waits for the GPU process to run the frame's WebGL commands.
  const gpu = events.filter((e) => e.name === "GPUTask" && inside(e) && threadOf(e) === "CrGpuMain").reduce((sum, e) => sum + e.dur, 0);
  const self = new Map();
  for (const s of samples) {
    if (s.pid !== task.pid || s.t < task.ts || s.t > end) continue;
    const f = nodes.get(s.node)?.callFrame.functionName || "(anonymous)";
    self.set(f, (self.get(f) ?? 0) + s.d);
  }
  console.log(`\n@${ms(task.ts - t0)} ms: ${ms(task.dur)} ms, GPU ${ms(gpu)} ms`);
  console.log(`  events: ${top(byName, 10)}`);
  // The functions the task's work started in (a FunctionCall's data).
  const calls = new Map();
  for (const e of events) {
    const d = e.name === "FunctionCall" && e.pid === task.pid && e.tid === task.tid && inside(e) ? e.args?.data : null;
    if (!d || e.dur < 1000) continue;
    const f = where(d);
    calls.set(f, (calls.get(f) ?? 0) + e.dur);
  }
  if (calls.size > 0) console.log(`  calls: ${top(calls, 6)}`);
  console.log(`  self: ${top(self, 14)}`);
}
