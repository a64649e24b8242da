// Storage on screen: the zone-b StatefulSet lesson, db-1's details name its
// claim, the volume's node affinity and the zone it pins the pod to (all
// from the engine's answer); the dynamic-provisioning lesson's event log
// shows the PreBind step before its question; a completed Job pod stays on its node, dimmed
// and not counted, with its reason in its details.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { bridge, launch, probe, replaceText, settled, url } from "./helpers.mjs";

const out = process.env.STORAGE_SHOTS ?? join(process.cwd(), "e2e", "screenshots");
const ready = (page) => page.waitForFunction(
  () => window.__schedplay?.loadedGen >= 1 && window.__schedplay.drawnGen >= window.__schedplay.loadedGen && window.__schedplay.simDone,
  null, { timeout: 90000, polling: 50 });

// toEnd moves the scrubber to the end of the run, as a user drags it.
async function toEnd(page) {
  await page.$eval("#tl-scrub", (s) => { s.value = s.max; s.dispatchEvent(new Event("input", { bubbles: true })); });
  await page.waitForFunction(() => window.__schedplay.cursor === window.__schedplay.events - 1, null, { polling: 50 });
  await settled(page);
}

async function clickOnStage(page, kind, key) {
  const r = await bridge(page, "locate", kind, key);
  assert.ok(r.ok, `${kind} ${key} is not on the canvas`);
  // On a phone the page scrolls (the scrubber was just used): bring the
  // canvas into view, or the click lands outside the viewport.
  await page.locator("#stage").scrollIntoViewIfNeeded();
  const box = await page.locator("#stage").boundingBox();
  await page.mouse.move(box.x + r.x + r.w / 2, box.y + r.y + r.h / 2);
  await page.mouse.down();
  await page.waitForTimeout(100);
  await page.mouse.up();
}

for (const [w, h] of [[1280, 720], [390, 844]]) {
  test(`storage details at ${w}x${h}`, async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: w, height: h }, locale: "en-US" });
      const page = await context.newPage();
      await page.goto(new URL("?lesson=statefulset-pending-in-zone-b", url).href);
      await ready(page);
      await toEnd(page);
      const d = await bridge(page, "details", "pod", "default/db-1");
      assert.ok(d.ok, "db-1 is in the scene");
      assert.deepEqual(d.storage?.zones, ["zone-b"], `db-1's storage: ${JSON.stringify(d.storage)}`);
      assert.equal(d.storage.claims[0].pv, "pv-db-1");
      await clickOnStage(page, "pod", "default/db-1");
      await page.waitForSelector("#details:not([hidden])");
      const text = await page.textContent("#details");
      assert.match(text, /Pinned to zone zone-b by its volumes/);
      assert.match(text, /claim data-db-1 \(Bound, 20Gi, ReadWriteOnce\)/);
      assert.match(text, /volume pv-db-1: topology\.kubernetes\.io\/zone In zone-b/);
      await page.screenshot({ path: join(out, `storage-zone-b-${w}x${h}.png`) });

      // Its question (web-1's volume) holds the run back; web-0's PreBind
      // comes before it.
      await page.goto(new URL("?lesson=storage-dynamic-provisioning", url).href);
      await page.waitForSelector("#quiz:not([hidden])", { timeout: 90000 });
      const events = await bridge(page, "trace", "0");
      assert.ok(events.events.some((e) => e.kind === "PreBind" && e.pod === "default/web-0"), "PreBind is in the trace");
      // The event log lists it with the pod and its node.
      await page.waitForSelector("#log-list .kind-PreBind");
      assert.match(await page.locator("#log-list li", { has: page.locator(".kind-PreBind") }).first().textContent(), /default\/web-0 → node-a: VolumeBinding PreBind/);
      await page.screenshot({ path: join(out, `storage-prebind-${w}x${h}.png`) });
    } finally {
      await browser.close();
    }
  });
}

const finished = `apiVersion: v1
kind: Node
metadata: {name: node-a}
status: {allocatable: {cpu: "1", memory: 2Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: job-done}
spec:
  nodeName: node-a
  containers: [{name: c, image: busybox, resources: {requests: {cpu: 900m}}}]
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: 500m}}}]
`;

test("a completed Job pod stays on its node, dimmed and not counted", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    await replaceText(page, finished);
    const p = await probe(page);
    assert.ok(p.lastReply.ok, JSON.stringify(p.lastReply.diagnostics));
    assert.equal(p.lastReply.summary.pods, 1, "the finished pod is not counted");
    await page.waitForFunction(() => window.__schedplay.simDone && window.__schedplay.cursor === window.__schedplay.events - 1, null, { polling: 50 });
    await settled(page);
    const web = await bridge(page, "details", "pod", "default/web");
    assert.equal(web.pod.node, "node-a", "web fits: the finished pod holds no cpu");
    await clickOnStage(page, "pod", "default/job-done");
    await page.waitForSelector("#details:not([hidden])");
    const text = await page.textContent("#details");
    assert.match(text, /Succeeded on node-a: holds nothing there/);
    assert.match(text, /completed \(status\.phase Succeeded\)/);
    await page.screenshot({ path: join(out, "finished-pod-1280x720.png") });
  } finally {
    await browser.close();
  }
});
