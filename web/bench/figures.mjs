// The playground's performance figures in headless Chromium (docs/performance-web.md):
// everything the page downloads (raw and gzip -9), navigation to first frame
// with where the time goes, edit-to-frame at 50 nodes / 300 pods, and frame
// times while playing 500 nodes / 5,000 pods. Not a test: figures vary by machine.
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/figures.mjs [runs] [sections]
// sections: a comma-separated subset of download,first,edit,large (default all).
import { gzipSync } from "node:zlib";
import { launch, open, url } from "../e2e/helpers.mjs";

const runs = Number(process.argv[2] ?? 5);
const sections = new Set((process.argv[3] ?? "download,first,edit,large").split(","));
const ms = (x) => `${Math.round(x)} ms`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await launch();

// ---- downloads ----
if (sections.has("download")) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  const page = await context.newPage();
  const files = [];
  page.on("response", async (r) => {
    try {
      const body = await r.body();
      files.push({ name: new URL(r.url()).pathname, raw: body.length, gz: gzipSync(body, { level: 9 }).length });
    } catch { /* redirects have no body */ }
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__schedplay?.drawnGen >= 1, null, { timeout: 30000 });
  await page.waitForTimeout(500);
  if (!files.some((f) => /\/main\.[0-9a-f]+\.wasm$/.test(f.name))) {
    // A streamed compile leaves no body to read: fetch it again.
    const body = Buffer.from(await (await fetch(new URL((await (await fetch(new URL("manifest.json", url))).json()).files["main.wasm"], url))).arrayBuffer());
    files.push({ name: "/main.wasm", raw: body.length, gz: gzipSync(body, { level: 9 }).length });
  }
  files.sort((a, b) => b.raw - a.raw);
  let raw = 0, gz = 0;
  for (const f of files) {
    raw += f.raw;
    gz += f.gz;
    console.log(`  ${f.name.padEnd(20)} ${(f.raw / 1e6).toFixed(3).padStart(7)} MB raw ${(f.gz / 1e6).toFixed(3).padStart(7)} MB gzip`);
  }
  console.log(`download: ${files.length} files, ${(raw / 1e6).toFixed(2)} MB raw, ${(gz / 1e6).toFixed(2)} MB gzip -9`);
  await context.close();
}

// ---- first frame ----
// Moments relative to navigation: the stage's script starts, the wasm is
// compiled and instantiated, Go's main starts (runtime and package init
// done), the game is made (fonts), Go's main has published the bridge, the first
// load (and its length), the first frame with the scenario.
if (sections.has("first")) {
  const cold = [], warm = [];
  const moments = async (page) => page.evaluate(() => {
    const s = window.__schedplay;
    const stage = document.querySelector("#stage").contentWindow.__stageMarks ?? {};
    const rel = (abs) => abs - performance.timeOrigin;
    return {
      stageScript: rel(stage.script), instantiated: rel(stage.instantiated), goMain: rel(stage.main), game: rel(stage.game), goReady: rel(stage.ready), ebitenLoop: rel(stage.firstFrameCallback),
      text: s.startup.text, attach: s.startup.attach, firstLoad: s.startup.firstLoadMs, firstFrame: s.firstFrameMs,
    };
  });
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
    const page = await open(context);
    await page.waitForFunction(() => window.__schedplay.firstFrameMs > 0);
    cold.push(await moments(page));
    await page.reload();
    await page.waitForFunction(() => window.__schedplay?.firstFrameMs > 0, null, { timeout: 30000, polling: 20 });
    warm.push(await moments(page));
    await context.close();
  }
  for (const [name, list] of [["cold", cold], ["reload", warm]]) {
    const keys = Object.keys(list[0]);
    console.log(`first frame, ${name} (median of ${runs}): ` + keys.map((k) => `${k} ${ms(median(list.map((m) => m[k])))}`).join(", "));
  }
}

// ---- generated scenarios ----
function scenario(nodes, pods, pending) {
  const out = [`apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 100
`];
  for (let i = 0; i < nodes; i++) {
    out.push(`---
apiVersion: v1
kind: Node
metadata: {name: node-${i}, labels: {topology.kubernetes.io/zone: zone-${i % 3}, kubernetes.io/hostname: node-${i}}}
status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}
`);
  }
  for (let i = 0; i < pods; i++) {
    const bound = i < pods - pending;
    out.push(`---
apiVersion: v1
kind: Pod
metadata: {name: pod-${i}, labels: {app: app-${i % 20}}}
spec:
  ${bound ? `nodeName: node-${i % nodes}` : "schedulerName: default-scheduler"}
  priorityClassName: ${i % 7 === 0 ? "high" : "low"}
  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`);
  }
  return out.join("");
}

const newPod = (name) => `
---
apiVersion: v1
kind: Pod
metadata: {name: ${name}}
spec:
  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`;

// ---- edit to frame at 50 nodes / 300 pods ----
if (sections.has("edit")) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  const page = await open(context);
  await page.evaluate((t) => window.__schedplaySetText(t), scenario(50, 300, 30));
  await page.waitForFunction(() => window.__schedplay.simDone && window.__schedplay.editToFrameMs > 0, null, { timeout: 60000 });
  const times = [], marks = [];
  for (let i = 0; i < runs; i++) {
    await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
    await page.click(".cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.insertText(newPod(`bench-${i}`));
    await page.waitForFunction(() => window.__schedplay.editToFrameMs > 0, null, { timeout: 60000, polling: 10 });
    times.push(await page.evaluate(() => window.__schedplay.editToFrameMs));
    marks.push(await page.evaluate(() => window.__schedplay.editMarks));
  }
  console.log(`edit to frame, 50 nodes / 300 pods: median ${ms(median(times))} (${times.map(Math.round).join(", ")} ms)`);
  // load: the bridge's load call; reply: the page has handled its reply;
  // shown: the end of the simulation is on its way to the canvas; frame:
  // the canvas has drawn it (ms since the reload started).
  if (marks[0]) console.log("  where (medians): " + Object.keys(marks[0]).map((k) => `${k} ${ms(median(marks.map((m) => m[k])))}`).join(", "));
  await context.close();
}

// ---- frame time at 500 nodes / 5,000 pods ----
if (sections.has("large")) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  const page = await open(context);
  const text = scenario(500, 5000, 200);
  const t0 = Date.now();
  const loads = await page.evaluate(() => window.__schedplay.loads);
  await page.evaluate((t) => window.__schedplaySetText(t), text);
  await page.waitForFunction((n) => window.__schedplay.loads > n && window.__schedplay.simDone, loads, { timeout: 120000, polling: 100 });
  console.log(`500 nodes / 5,000 pods: loaded and simulated in ${Date.now() - t0} ms; ${(await page.evaluate(() => window.__schedplay.events))} events`);
  // Two windows of 15 s (900 frames; long enough to include the garbage
  // collector's pauses, one every 20 s or so): from the start, as the 200
  // pending pods enter the queue, and from the first pod scheduled, as pods
  // leave the lane for their nodes (the harder part: the lane moves up at
  // each event). Each starts with a click on play, as a user would.
  const firstScheduled = await page.$$eval("#log li", (lis) => lis.findIndex((li) => li.textContent.includes("Scheduled")));
  for (const [label, from] of [["from the start", -1], ["from the first pod scheduled", firstScheduled]]) {
    await page.click("#tl-start");
    if (from >= 0) await page.click(`#log li:nth-child(${from + 1}) button`);
    await page.selectOption("#tl-speed", "4");
    await page.waitForTimeout(1500); // the seek's glides settle
    await page.click("#tl-play");
    const frames = await page.evaluate((n) => new Promise((resolve) => {
      const gaps = [];
      let last = 0;
      const stage = document.querySelector("#stage").contentWindow;
      const s0 = JSON.parse(stage.schedplay.stats());
      const loop = (t) => {
        if (last) gaps.push(t - last);
        last = t;
        if (gaps.length < n) requestAnimationFrame(loop);
        else {
          const s1 = JSON.parse(stage.schedplay.stats());
          resolve({ gaps, paints: s1.paints - s0.paints, events: s1.gen - s0.gen, gcs: s1.numGC - s0.numGC, heapMB: s1.heapMB, sysMB: s1.sysMB });
        }
      };
      requestAnimationFrame(loop);
    }), 900);
    await page.click("#tl-play"); // pause
    const g = frames.gaps.sort((a, b) => a - b);
    const mean = g.reduce((a, b) => a + b, 0) / g.length;
    const slow = g.filter((x) => x > 20);
    console.log(`500 nodes / 5,000 pods playing at 4x ${label}: frame interval mean ${mean.toFixed(1)} ms (${(1000 / mean).toFixed(0)} fps), median ${g[g.length >> 1].toFixed(1)} ms, p95 ${g[Math.floor(g.length * 0.95)].toFixed(1)} ms; ` +
      `${slow.length} of ${g.length} frames over 20 ms (${slow.filter((x) => x > 100).length} over 100 ms); ${frames.paints} repaints, ${frames.events} events shown, ${frames.gcs} garbage collections; Go heap ${frames.heapMB} MB, wasm memory ${frames.sysMB} MB`);
  }
  await context.close();
}

await browser.close();
