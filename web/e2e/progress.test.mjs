// End-to-end test of a long simulation's progress line and its Cancel
// button, in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { bridge, cores, editorText, ended, launch, longestTask, open, probe, shots, watchLongTasks } from "./helpers.mjs";

// 1,000 nodes and up to 10,000 pending pods. With heavy, each pod prefers
// zones without its app's pods (InterPodAffinity then reads every bound
// pod each cycle): a run of many seconds in wasm, which a click on
// Cancel reaches before its end on any machine.
function large(pods = 10000, prefix = "pod-", heavy = false) {
  const out = [];
  for (let i = 0; i < 1000; i++) {
    out.push(`---\napiVersion: v1\nkind: Node\nmetadata: {name: node-${i}, labels: {topology.kubernetes.io/zone: zone-${i % 3}}}\nstatus: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}\n`);
  }
  for (let i = 0; i < pods; i++) {
    out.push(`---\napiVersion: v1\nkind: Pod\nmetadata: {name: ${prefix}${i}, labels: {app: app-${i % 20}}}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n` +
      (heavy ? `  affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, podAffinityTerm: {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: app-${i % 20}}}}}]}}\n` : ""));
  }
  return out.join("");
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test("a long simulation shows its progress, and Cancel keeps the events so far", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await open(context);
  const loads = (await probe(page)).loads;
  await page.evaluate((t) => window.__schedplaySetText(t), large(10000, "pod-", true));
  await page.waitForFunction((n) => window.__schedplay.loads > n, loads, { timeout: 60000, polling: 20 });
  // The button is looked up inside the progress line: a role query over
  // the whole page reads every element's style, and the event log's 3,000
  // rows out of view (content-visibility: auto) are styled for it one at a
  // time, which took Playwright 2 to 22 s between the busy page's tasks
  // (docs/performance-web.md); a click at the button's place is handled
  // within half a second.
  const cancel = page.locator(".sim-progress").getByRole("button", { name: "Cancel the simulation (keeps the events so far)" });
  await cancel.waitFor({ state: "visible", timeout: 30000 });
  // While the page follows the edited run, the canvas repaints only when
  // a scene of its end so far is shown (it cuts, it does not glide): the
  // frames in between leave the canvas alone.
  const stage = page.frame({ url: /stage\.html/ });
  const stats = () => stage.evaluate(() => JSON.parse(window.schedplay.stats()));
  const s0 = await stats();
  await page.waitForTimeout(600);
  const s1 = await stats();
  assert.equal((await probe(page)).simDone, false, "the run ended before the paints were counted");
  assert.ok(s1.paints - s0.paints <= s1.gen - s0.gen + 1, `${s1.paints - s0.paints} paints for ${s1.gen - s0.gen} scenes shown while following`);
  const line = await page.locator(".sim-progress").textContent();
  assert.match(line, /Simulating… [\d,]+ events, t=\d+s/);
  // A pointer click, while the run keeps the page busy.
  const clicked = Date.now();
  await cancel.click({ timeout: 10000 });
  await page.waitForFunction(() => window.__schedplay.simDone, null, { timeout: 10000, polling: 20 });
  console.log(`Cancel clicked and the run stopped in ${Date.now() - clicked} ms`);
  const p = await probe(page);
  assert.ok(p.events > 0, "no events were kept");
  assert.ok(p.events < 10000 * 2, `${p.events} events: the run was not cut short`);
  const budget = page.locator("#budget");
  assert.match(await budget.textContent(), /^Cancelled: the simulation stopped at t=\d+(\.\d+)?s after [\d,]+ events/);
  assert.equal(await budget.isVisible(), true);
  assert.equal(await page.locator(".sim-progress").isVisible(), false, "the progress line stayed after Cancel");
  await page.screenshot({ path: join(shots, "progress-cancelled-1280x720.png") });
  // The events so far stay: the timeline steps through them.
  await page.click("#tl-start");
  await page.click("#tl-fwd");
  await page.waitForFunction(() => window.__schedplay.cursor === 0, null, { timeout: 10000, polling: 20 });
  assert.equal((await probe(page)).events, p.events, "events changed after Cancel");
  assert.deepEqual(page.errors, []);
  await context.close();
});

test("a long load shows its progress; Cancel keeps the scenario shown and the text typed", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await open(context);
  const before = await probe(page);
  // Long enough that the load is still running when the click lands: the
  // line shows 300 ms in, a 5,000-pod load ends 2.4 to 4 s in at load
  // average 3.6 (sooner on an idle machine), and a click that lands after
  // it finds no button. 10,000 pods is the most a load takes (docs/limits.md).
  const text = large(10000, "big-");
  await watchLongTasks(page);
  await page.evaluate((t) => window.__schedplaySetText(t), text);
  // The page stays live while the load runs: its progress line comes up
  // and its Cancel button takes a click.
  const cancel = page.getByRole("button", { name: "Cancel loading (keeps the scenario shown and your text)" });
  await cancel.waitFor({ state: "visible", timeout: 60000 });
  await cancel.click({ timeout: 10000 });
  await page.waitForFunction(() => window.__schedplay.cancelledLoads > 0, null, { timeout: 30000, polling: 20 });
  const p = await probe(page);
  assert.equal(p.loads, before.loads, "a cancelled load counted as loaded");
  assert.deepEqual(p.lastReply, before.lastReply, "the last good load was replaced");
  assert.equal(p.loading, false);
  assert.equal(await editorText(page), text, "the editor lost the text");
  assert.equal(await page.locator("#status").textContent(), "Loading cancelled: showing the last scenario");
  assert.equal(await page.locator(".sim-progress").isVisible(), false, "the progress line stayed after Cancel");
  assert.equal(p.events, before.events, "the shown run changed");
  console.log(`longest task while loading ${text.length} characters until Cancel: ${Math.round((await longestTask(page)).max)} ms`);

  // An edit loads the text after all, to its end.
  await page.click(".cm-content");
  await page.keyboard.press("Control+End");
  await page.keyboard.insertText("# loaded after all\n");
  await page.waitForFunction((n) => window.__schedplay.loads > n && !window.__schedplay.loading, before.loads, { timeout: 120000, polling: 50 });
  const done = await probe(page);
  assert.equal(done.lastReply.ok, true);
  assert.equal(done.lastReply.summary.nodes, 1000);
  assert.equal(done.lastReply.summary.pods, 10000);

  // The line as people see it, on a laptop and on a small phone (where it
  // stays at the bottom of the viewport).
  for (const [width, height] of [[1280, 720], [400, 300]]) {
    await page.setViewportSize({ width, height });
    const n = (await probe(page)).loads;
    await page.evaluate((t) => window.__schedplaySetText(t), large(9000, `w${width}-`));
    await page.locator(".sim-progress", { hasText: "Loading the scenario" }).waitFor({ state: "visible", timeout: 60000 });
    await page.screenshot({ path: join(shots, `progress-load-${width}x${height}.png`) });
    await page.waitForFunction((b) => window.__schedplay.loads > b && !window.__schedplay.loading, n, { timeout: 120000, polling: 50 });
  }
  assert.deepEqual(page.errors, []);
  await context.close();
});

// The warm-up runs once, after the first frame, and changes nothing the
// page shows, not even the canvas it draws with: a worker first (web/src/warm-worker.ts), then the stage's
// own (ui/session's Warm) in idle slices while nothing plays. A paste
// while it is under way comes first: it loads while the warm-up waits,
// and the warm-up ends after it, leaving the pasted scenario on screen.
// The page is told it has 2 cores (as this project's machines do), where
// the worker waits for the first run too.
test("the warm-up gives way to a paste and leaves what the page shows", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await cores(context, 2);
  const page = await open(context);
  // The first run plays from the start: its frames are left alone.
  await page.waitForTimeout(1500);
  const pause = page.getByRole("button", { name: "Pause" });
  assert.equal(await pause.count(), 1, "the first run is not playing");
  const playing = (await probe(page)).warm;
  assert.equal(playing.slices, 0, "the warm-up ran while the first run played");
  assert.equal(playing.worker.startedAt, 0, "the warm-up worker started while the first run played, on 2 cores");
  await pause.click();
  await page.waitForFunction(() => window.__schedplay.warm.slices > 0, null, { timeout: 60000, polling: 20 });
  const worker = (await probe(page)).warm.worker;
  assert.ok(worker.ok, `the warm-up worker did not report: ${worker.error}`);
  assert.ok(worker.ms > 0 && worker.doneAt > worker.startedAt, `the worker's report: ${JSON.stringify(worker)}`);
  const loads = (await probe(page)).loads;
  await page.evaluate((t) => window.__schedplaySetText(t), large(600, "paste-"));
  await page.waitForFunction((n) => window.__schedplay.loads > n && !window.__schedplay.loading, loads, { timeout: 120000, polling: 50 });
  await ended(page);
  const pasted = await probe(page);
  const outline = await bridge(page, "outline");
  const shown = outline.zones.flatMap((z) => z.nodes.map((n) => n.name));
  assert.equal(shown.length, 1000, "the pasted cluster's nodes are shown");
  assert.deepEqual(shown.filter((n) => !n.startsWith("node-")), [], "nodes of another cluster are shown");
  const status = await page.locator("#status").textContent();
  const canvas = page.frameLocator("iframe#stage").locator("canvas");
  const picture = await canvas.screenshot();
  await page.waitForFunction(() => window.__schedplay.warm.doneAt > 0, null, { timeout: 120000, polling: 100 });
  // Its last steps draw the made-up cluster where nothing shows it (the
  // drawing code warms up too), one picture a frame.
  const drawn = async () => (await bridge(page, "stats")).warmDrawn;
  for (let i = 0; !(await drawn() >= 4); i++) {
    assert.ok(i < 100, `the warm-up drew ${await drawn()} of its 4 pictures`);
    await page.waitForTimeout(50);
  }
  assert.equal(await drawn(), 4, "the warm-up drew more than its 4 pictures");
  assert.ok((await canvas.screenshot()).equals(picture), "the warm-up's pictures showed on the canvas");
  const warmed = await probe(page);
  assert.ok(warmed.warm.slices > 1, `the warm-up ran in ${warmed.warm.slices} slice(s), not spread over idle time`);
  for (const k of ["loads", "loadedGen", "drawnGen", "events", "cursor", "lastReply"]) assert.deepEqual(warmed[k], pasted[k], `the warm-up changed ${k}`);
  assert.deepEqual(await bridge(page, "outline"), outline, "the warm-up changed the scene");
  assert.equal(await page.locator("#status").textContent(), status);
  assert.equal(JSON.parse(await page.frame({ url: /stage\.html/ }).evaluate(() => window.schedplay.warm("50"))).done, true, "done once, done for good");
  assert.deepEqual(page.errors, []);
  await context.close();
});

// With cores to spare the worker starts at once, while the first run
// plays; the run plays to its end, and nothing it shows changes after.
test("on four cores the warm-up worker runs while the first run plays", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await cores(context, 4);
  const page = await open(context);
  await page.waitForFunction(() => window.__schedplay.warm.worker.startedAt > 0, null, { timeout: 10000, polling: 20 });
  assert.equal(await page.getByRole("button", { name: "Pause" }).count(), 1, "the first run is not playing");
  await page.waitForFunction(() => window.__schedplay.warm.worker.doneAt > 0, null, { timeout: 60000, polling: 50 });
  const worker = (await probe(page)).warm.worker;
  assert.ok(worker.ok, `the warm-up worker did not report: ${worker.error}`);
  await ended(page);
  const shown = await probe(page);
  assert.ok(shown.simDone && shown.events > 0, "the first run did not end");
  await page.waitForFunction(() => window.__schedplay.warm.doneAt > 0, null, { timeout: 120000, polling: 100 });
  const warmed = await probe(page);
  for (const k of ["loads", "loadedGen", "drawnGen", "events", "cursor", "lastReply"]) assert.deepEqual(warmed[k], shown[k], `the warm-up changed ${k}`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

// On two cores, the person going to the editor while the first run plays
// starts the worker: a paste is likely to follow.
test("on two cores the warm-up worker starts when the editor takes the focus", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await cores(context, 2);
  const page = await open(context);
  await page.waitForTimeout(1000);
  assert.equal((await probe(page)).warm.worker.startedAt, 0, "the worker started before the editor had the focus");
  await page.locator("#editor .cm-content").click();
  await page.waitForFunction(() => window.__schedplay.warm.worker.startedAt > 0, null, { timeout: 10000, polling: 20 });
  assert.equal(await page.getByRole("button", { name: "Pause" }).count(), 1, "the first run is not playing");
  await page.waitForFunction(() => window.__schedplay.warm.worker.doneAt > 0, null, { timeout: 60000, polling: 50 });
  const worker = (await probe(page)).warm.worker;
  assert.ok(worker.ok, `the warm-up worker did not report: ${worker.error}`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

// Where a page cannot start a worker, the stage's own warm-up does it all.
test("without workers the stage's warm-up does it all", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(() => { window.Worker = undefined; });
  const page = await open(context);
  await page.getByRole("button", { name: "Pause" }).click();
  await page.waitForFunction(() => window.__schedplay.warm.doneAt > 0, null, { timeout: 120000, polling: 100 });
  const { warm } = await probe(page);
  assert.equal(warm.worker.ok, false, "a worker ran");
  assert.equal(warm.worker.error, "no worker");
  assert.ok(warm.slices > 1, `the stage's warm-up ran in ${warm.slices} slice(s)`);
  assert.deepEqual(page.errors, []);
  await context.close();
});

// pattern is a message of a catalog (web/locales) as a regular expression
// source: a placeholder matches fill[name] or else a figure, and a message
// with plural forms any of its forms.
function pattern(cat, key, fill = {}) {
  const m = cat[key];
  assert.ok(m, `the catalog lacks ${key}`);
  const forms = typeof m === "string" ? [m] : Object.values(m);
  const part = (p) => (/^\{\w+\}$/.test(p) ? fill[p.slice(1, -1)] ?? "[\\d.,]+" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return `(?:${forms.map((f) => f.split(/(\{\w+\})/).map(part).join("")).join("|")})`;
}
const whole = (src) => new RegExp(`^${src}$`);

test("the progress line, its Cancel and what a cancel leaves are in the page's language", async () => {
  const lang = "zh-CN";
  // The page's catalog and the small one it shares with the embed (the
  // player's stop sentence).
  const read = async (f) => JSON.parse(await readFile(new URL(`../locales/${f}`, import.meta.url), "utf8"));
  const cat = { ...await read(`${lang}.json`), ...await read(`embed/${lang}.json`) };
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await open(context, `?lang=${lang}`);
  // The page's own controls around the line speak the same language.
  for (const key of ["tl.preempt", "tl.text", "tl.start"]) {
    assert.equal(await page.getByRole("button", { name: cat[key], exact: true }).count(), 1, `no button ${cat[key]} (${key})`);
  }
  assert.match(await page.locator("#tl-time").textContent(), whole(pattern(cat, "tl.position", { t: "[\\dhms.]+", more: "…?" })));

  // A long load: its line, its button's text and name, the status after Cancel.
  await page.evaluate((t) => window.__schedplaySetText(t), large(10000, "zh-")); // long: see the test above
  const cancelLoad = page.getByRole("button", { name: cat["progress.cancelLoad"], exact: true });
  await cancelLoad.waitFor({ state: "visible", timeout: 60000 });
  assert.match((await page.locator(".sim-progress span").textContent()).trim(), whole(pattern(cat, "progress.loading")));
  assert.equal(await cancelLoad.textContent(), cat["progress.cancel"]);
  await cancelLoad.click({ timeout: 10000 });
  await page.waitForFunction(() => window.__schedplay.cancelledLoads > 0, null, { timeout: 30000, polling: 20 });
  assert.equal(await page.locator("#status").textContent(), cat["progress.loadCancelled"]);

  // A long simulation: its line, and the line a Cancel leaves.
  const loads = (await probe(page)).loads;
  await page.evaluate((t) => window.__schedplaySetText(t), large(10000, "pod-", true));
  await page.waitForFunction((n) => window.__schedplay.loads > n, loads, { timeout: 60000, polling: 20 });
  assert.match(await page.locator("#status").textContent(), new RegExp(pattern(cat, "status.pods")));
  const cancelSim = page.locator(".sim-progress").getByRole("button", { name: cat["progress.cancelSim"], exact: true });
  await cancelSim.waitFor({ state: "visible", timeout: 30000 });
  assert.match((await page.locator(".sim-progress span").textContent()).trim(), whole(pattern(cat, "progress.simulating")));
  await page.screenshot({ path: join(shots, "progress-zh-CN-1280x720.png") });
  // A pointer click (the button looked up in the line: see the first test).
  await cancelSim.click({ timeout: 10000 });
  await page.waitForFunction(() => window.__schedplay.simDone, null, { timeout: 10000, polling: 20 });
  assert.match(await page.locator("#budget").textContent(),
    whole(pattern(cat, "progress.cancelled", { why: pattern(cat, "progress.simStopped") })));
  assert.deepEqual(page.errors, []);
  await context.close();
});
