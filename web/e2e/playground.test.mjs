// End-to-end tests of the playground in headless Chromium. Run by
// `make test-e2e`, which builds the site and serves it on 127.0.0.1.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  appendText, bridge, diffFraction, editorText, launch, open, pixelStats, probe, replaceText, settled, settledStage, shots, stageShot,
} from "./helpers.mjs";

const examples = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "examples");

// ui/palette.go: the class colours, most important class first.
const classColors = ["#e15759", "#f28e2b", "#edc948", "#59a14f", "#76b7b2", "#4e79a7"];

const newPod = (name, cls) => `
---
apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  priorityClassName: ${cls}
  containers: [{name: app, image: nginx, resources: {requests: {cpu: 100m, memory: 64Mi}}}]
`;

// clickOnStage clicks a pod or node where the canvas draws it.
async function clickOnStage(page, kind, key) {
  const r = await bridge(page, "locate", kind, key);
  assert.ok(r.ok, `${kind} ${key} is not on the canvas`);
  const box = await page.locator("#stage").boundingBox();
  await page.mouse.move(box.x + r.x + r.w / 2, box.y + r.y + r.h / 2);
  // ebiten samples buttons once per tick: hold the button across a few.
  await page.mouse.down();
  await page.waitForTimeout(100);
  await page.mouse.up();
}

describe("playground", () => {
  let browser, context, page;

  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  });
  after(async () => {
    await browser?.close();
  });

  test("the page loads and the canvas shows the default scenario", async (t) => {
    page = await open(context);
    const p = await probe(page);
    t.diagnostic(`navigation to first frame: ${Math.round(p.firstFrameMs)} ms`);
    assert.ok(p.lastReply.ok, "the default scenario loads");
    assert.match(await page.textContent("#status"), /^\d+ nodes? · \d+ pods? · \d+ pending$/);
    assert.equal(await page.isVisible("#loading"), false, "the loading cover is gone");
    await settled(page);
    await page.screenshot({ path: join(shots, "01-default.png") });
    const stats = await pixelStats(context, await stageShot(page, "01-default-stage.png"), classColors);
    // Cards, bars and chips cover a good part of the canvas, and pods of at
    // least two priority classes are drawn in their colours.
    assert.ok(stats.other / stats.total > 0.2, `only ${(100 * stats.other / stats.total).toFixed(1)}% of the canvas is drawn on`);
    const coloured = stats.counts.filter((n) => n > 300).length;
    assert.ok(coloured >= 2, `pixels per class colour ${stats.counts}: want at least two classes drawn`);
    // ebiten's context is made without a multisampled back buffer
    // (web/src/stage.ts): getContext hands back the context ebiten made.
    const stage = await (await page.$("#stage")).contentFrame();
    const attrs = await stage.evaluate(() => document.querySelector("canvas").getContext("webgl2")?.getContextAttributes());
    assert.equal(attrs?.antialias, false, `the canvas's context attributes: ${JSON.stringify(attrs)}`);
    // ebiten's clear of the screen before each presented frame became a
    // gl.clear (web/src/screen-clear.ts); the pixels checked above are
    // drawn with it.
    assert.ok(await stage.evaluate(() => window.__screenClears()) > 0, "no screen clear was replaced");
    assert.deepEqual(page.errors, []);
  });

  test("typing a new pod into the editor makes it appear and get scheduled; clicking it opens its details", async () => {
    const before = await probe(page);
    const beforeShot = await stageShot(page, "02-before-new-pod.png");
    await appendText(page, newPod("e2e-new-pod", "high"));
    const p = await probe(page);
    assert.ok(p.lastReply.ok, `the edited scenario loads: ${JSON.stringify(p.lastReply.diagnostics)}`);
    assert.equal(p.lastReply.summary.pending, before.lastReply.summary.pending + 1);
    // After an edit the page simulates and shows the end of the new run.
    await page.waitForFunction(() => window.__schedplay.simDone && window.__schedplay.cursor === window.__schedplay.events - 1, null, { polling: 50 });
    await settled(page);
    const d = await bridge(page, "details", "pod", "default/e2e-new-pod");
    assert.ok(d.ok && d.pod.priorityClass === "high", "the new pod is in the scene");
    assert.match(d.pod.node ?? "", /^node-/, `the new pod landed on a node: ${JSON.stringify(d.pod)}`);
    const afterShot = await stageShot(page, "02-new-pod.png");
    assert.ok((await diffFraction(context, beforeShot, afterShot)) > 0.002, "the canvas changed");

    await clickOnStage(page, "pod", "default/e2e-new-pod");
    await page.waitForSelector("#details:not([hidden])");
    assert.equal(await page.textContent("#details h2"), "e2e-new-pod");
    assert.match(await page.textContent("#details"), /running on node-/);
    // The explain tables of its last attempt: the filter table has one row
    // per node; the plugin x node scores table a total for each feasible node.
    await page.waitForSelector("#details table.explain");
    const rows = await page.$$eval("#details table.explain:not(.scores-table) tr", (trs) => trs.map((t) => t.textContent));
    assert.ok(rows.filter((r) => /^★?\s?node-[abc]/.test(r)).length === 3, `explain rows ${JSON.stringify(rows)}`);
    const heads = await page.$$eval("#details table.scores-table th", (ths) => ths.map((t) => t.textContent));
    assert.ok(heads.includes("Total"), `the scores table has a total row: ${JSON.stringify(heads)}`);
    const totals = await page.$$eval("#details table.scores-table tr.total td", (tds) => tds.length);
    assert.equal(totals, d.attempt.explanation.nodes.filter((n) => n.feasible).length, "a total per feasible node");
    await page.screenshot({ path: join(shots, "03-pod-details.png") });

    // Clicking a node shows its pods.
    await clickOnStage(page, "node", "node-a");
    await page.waitForFunction(() => document.querySelector("#details h2")?.textContent === "node-a");
    assert.match(await page.textContent("#details"), /low-a1/);
    await page.click("#details-close");
    assert.equal(await page.isVisible("#details"), false);
  });

  test("broken YAML shows a diagnostic at its line and the last good state stays", async () => {
    await settled(page);
    const good = await probe(page);
    const goodShot = await stageShot(page, "04-before-break.png");
    const goodBox = await page.locator("#stage").boundingBox();
    await appendText(page, "\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: [oops\n");
    const p = await probe(page);
    assert.equal(p.lastReply.ok, false);
    const lines = (await editorText(page)).split("\n");
    const want = lines.findIndex((l) => l === "  name: [oops") + 1;
    assert.ok(want > 0);
    assert.equal(p.lastReply.diagnostics[0].line, want, `diagnostics ${JSON.stringify(p.lastReply.diagnostics)}`);
    // CodeMirror marks the error on that line.
    const marked = await page.evaluate(() =>
      [...document.querySelectorAll(".cm-lintRange-error")].map((e) => e.closest(".cm-line")?.textContent),
    );
    assert.ok(marked.includes("  name: [oops"), `error marks on lines ${JSON.stringify(marked)}`);
    assert.equal(await page.isVisible("#notice"), true);
    assert.match(await page.textContent("#notice"), /Showing last valid scenario/);
    const col = p.lastReply.diagnostics[0].col;
    assert.match(await page.textContent("#notice"), new RegExp(`Line ${want}, column ${col}:`));
    // The canvas still shows the last good scene.
    assert.equal(p.drawnGen, good.drawnGen);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(shots, "04-broken-yaml.png") });
    // Compare the canvas at the size it had: the notice takes its height
    // from it (notice.test.mjs), and without the notice it has it back.
    await page.evaluate(() => (document.getElementById("notice").style.display = "none"));
    await settledStage(page, [goodBox.width, goodBox.height]);
    await page.waitForTimeout(300);
    const brokenShot = await stageShot(page, "04-broken-stage.png");
    await page.evaluate(() => (document.getElementById("notice").style.display = ""));
    assert.ok((await diffFraction(context, goodShot, brokenShot)) < 0.001, "the canvas changed on a failed load");

    // Fixing the text clears the notice.
    const text = await editorText(page);
    await replaceText(page, text.slice(0, text.indexOf("\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: [oops")));
    assert.ok((await probe(page)).lastReply.ok);
    assert.equal(await page.isVisible("#notice"), false);
  });

  test("a hostile pod name shows as text", async () => {
    const evil = "<img src=x onerror=alert(1)>";
    const good = await editorText(page);
    await appendText(page, newPod(`"${evil}"`, "high"));
    const p = await probe(page);
    assert.equal(p.lastReply.ok, false, "the name is not a valid pod name");
    assert.ok(p.lastReply.diagnostics.some((d) => (d.object + d.msg).includes(evil)));
    assert.ok((await page.textContent("#notice")).includes(evil), "the notice shows the name literally");
    assert.equal(await page.evaluate(() => document.querySelectorAll("img").length), 0, "no element was injected");
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(shots, "05-hostile-name.png") });
    assert.deepEqual(page.errors, [], "no dialog opened and no script error");
    await replaceText(page, good);
    assert.ok((await probe(page)).lastReply.ok);
  });

  test("stepping and scrubbing change the shown time", async () => {
    await page.click("#tl-start");
    assert.match(await page.textContent("#tl-time"), /^t=0s · event 0\//);
    // The chips that glided back to where they were at t=0 settle into the
    // canvas's still picture: none is left drawn frame by frame.
    await settled(page);
    assert.equal((await bridge(page, "stats")).live, 0, "chips still drawn live after the seek settled");
    await page.click("#tl-fwd");
    let p = await probe(page);
    assert.equal(p.cursor, 0);
    assert.match(await page.textContent("#tl-time"), /^t=0s · event 1\//);
    // Step until simulated time moves (the victim's grace period ends).
    for (let i = 0; i < 10 && (await probe(page)).now === 0; i++) await page.click("#tl-fwd");
    p = await probe(page);
    assert.ok(p.now >= 30, `stepping reached t=${p.now}`);
    assert.match(await page.textContent("#tl-time"), new RegExp(`^t=${Math.floor(p.now)}s`));
    await page.click("#tl-back");
    assert.equal((await probe(page)).cursor, p.cursor - 1);

    // The scrubber's positions run 0 to 1000 (scrubmap.ts); this 30 s run
    // has no idle stretch, so half way is t=15s.
    await page.$eval("#tl-scrub", (e) => {
      e.value = "500";
      e.dispatchEvent(new Event("input", { bubbles: true }));
    });
    p = await probe(page);
    assert.equal(p.now, 15);
    assert.match(await page.textContent("#tl-time"), /^t=15s/);
    // At 15 s low-b2 is half-way through its grace period.
    const v = await bridge(page, "details", "pod", "default/low-b2");
    assert.ok(v.ok && v.pod.termination, `low-b2 at 15s: ${JSON.stringify(v.pod)}`);
    await settled(page);
    await page.screenshot({ path: join(shots, "07-scrubbed.png") });

    // The event log jumps in time.
    await page.click("#log li:first-child button");
    assert.equal((await probe(page)).cursor, 0);
    // Shortcuts do not steal keys from the editor.
    const text = await editorText(page);
    await page.click(".cm-content");
    await page.keyboard.press("End");
    await page.keyboard.type(".");
    assert.equal((await probe(page)).cursor, 0, "a dot typed in the editor stepped the timeline");
    await page.keyboard.press("Backspace");
    assert.equal(await editorText(page), text);
  });

  test("the default preemption scenario plays to the end", async () => {
    await replaceText(page, await (await fetch(new URL("default.yaml", page.url()))).text());
    await page.waitForFunction(() => window.__schedplay.simDone, null, { polling: 50 });
    await page.click("#tl-start");
    await page.click("#tl-preempt");
    const p = await probe(page);
    assert.ok(p.cursor > 0, "there is a preemption");
    const ghost = await bridge(page, "details", "node", "node-b");
    assert.deepEqual((ghost.node.ghosts ?? []).map((g) => g.name), ["critical"], "critical's ghost holds node-b");
    // The next preemption event is the victim's: it counts down its grace period.
    await page.click("#tl-preempt");
    const v = await bridge(page, "details", "pod", "default/low-b2");
    assert.equal(v.pod.termination?.ends, 30, `the victim is terminating: ${JSON.stringify(v.pod)}`);
    await settled(page);
    await page.screenshot({ path: join(shots, "08-preemption.png") });

    await page.selectOption("#tl-speed", "16");
    await page.click("#tl-play");
    await page.waitForFunction(() => window.__schedplay.cursor === window.__schedplay.events - 1, null, { polling: 100, timeout: 20000 });
    assert.equal((await bridge(page, "details", "pod", "default/low-b2")).ok, false, "the victim is gone");
    const c = await bridge(page, "details", "pod", "default/critical");
    assert.equal(c.pod.node, "node-b", "the preemptor runs on its nominated node");
    await settled(page);
    await page.screenshot({ path: join(shots, "09-preemption-end.png") });
    assert.deepEqual(page.errors, []);
  });

  test("a lesson plays to its end with its captions in order", async () => {
    const lesson = readFileSync(join(examples, "cordon-and-drain.yaml"), "utf8");
    await replaceText(page, lesson);
    await page.waitForFunction(() => window.__schedplay.simDone, null, { polling: 50, timeout: 20000 });
    assert.equal(await page.isVisible("#lesson"), true, "the lesson bar is shown");
    assert.equal(await page.textContent("#lesson-title"), "Cordon and drain");
    const reply = (await probe(page)).lastReply;
    // The order captions must come in: at by time, on by the first event it
    // matches (read here from the trace, independently of the page's code).
    const trace = (await bridge(page, "trace", "0")).events;
    const moment = (c) => {
      if (c.at !== undefined) return [c.at, -1];
      const e = trace.find((e) => e.kind === c.on.kind && (!c.on.pod || e.pod === c.on.pod) && (!c.on.node || e.node === c.on.node) && e.reason.includes(c.on.reason ?? ""));
      assert.ok(e, `caption "${c.text}" never happens`);
      return [e.t, e.seq];
    };
    const want = reply.lesson.captions.map((c, i) => ({ text: c.text, m: moment(c), i }))
      .sort((a, b) => a.m[0] - b.m[0] || a.m[1] - b.m[1] || a.i - b.i).map((c) => c.text);
    assert.equal(want.length, 5);

    await page.click("#tl-start");
    await page.selectOption("#tl-speed", "16");
    await page.evaluate(() => { window.__schedplay.captionsSeen = []; });
    await page.click("#tl-play");
    const shots5 = [];
    // Screenshot the first captions as they come.
    for (let k = 1; k <= 2; k++) {
      await page.waitForFunction((n) => window.__schedplay.captionsSeen.length >= n, k, { polling: 20, timeout: 20000 });
      shots5.push(await page.screenshot({ path: join(shots, `13-lesson-caption-${k}.png`) }));
    }
    await page.waitForFunction(() => window.__schedplay.cursor === window.__schedplay.events - 1, null, { polling: 100, timeout: 30000 });
    const p = await probe(page);
    // The Home click showed the t=0 caption before playing.
    const seen = p.captionsSeen[0] === want[0] ? p.captionsSeen : [want[0], ...p.captionsSeen];
    assert.deepEqual(seen, want, "every caption, in order, each once");
    assert.equal(await page.textContent("#lesson-caption"), want[want.length - 1]);
    await page.screenshot({ path: join(shots, "14-lesson-end.png") });
    await page.selectOption("#tl-speed", "1");
    assert.deepEqual(page.errors, []);
  });

  test("the draft comes back after a reload, and the theme switches", async () => {
    const marker = "# e2e draft marker";
    await appendText(page, `\n${marker}\n`);
    await page.reload();
    await page.waitForFunction(() => window.__schedplay?.loads >= 1, null, { timeout: 90000, polling: 50 });
    assert.ok((await editorText(page)).includes(marker), "the draft was restored");

    await page.waitForFunction(() => window.__schedplay.drawnGen >= 1, null, { timeout: 90000, polling: 50 });
    await page.click("#theme");
    assert.equal(await page.getAttribute("html", "data-theme"), "dark");
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(shots, "06-dark.png") });
    const stats = await pixelStats(context, await stageShot(page, "06-dark-stage.png"));
    const [r, g, b] = stats.background;
    assert.ok(r + g + b < 120, `dark canvas background is rgb(${r}, ${g}, ${b})`);
    await page.click("#theme");
  });
});
