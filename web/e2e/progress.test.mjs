// End-to-end test of a long simulation's progress line and its Cancel
// button, in headless Chromium.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { launch, open, probe, shots } from "./helpers.mjs";

// A run of several seconds in wasm: 500 nodes and 9,000 pending pods.
function large() {
  const out = [];
  for (let i = 0; i < 500; i++) {
    out.push(`---\napiVersion: v1\nkind: Node\nmetadata: {name: node-${i}, labels: {topology.kubernetes.io/zone: zone-${i % 3}}}\nstatus: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}\n`);
  }
  for (let i = 0; i < 9000; i++) {
    out.push(`---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-${i}, labels: {app: app-${i % 20}}}\nspec:\n  containers: [{name: c, image: pause, resources: {requests: {cpu: 100m, memory: 128Mi}}}]\n`);
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
  await page.evaluate((t) => window.__schedplaySetText(t), large());
  await page.waitForFunction((n) => window.__schedplay.loads > n, loads, { timeout: 60000, polling: 20 });
  const cancel = page.getByRole("button", { name: "Cancel the simulation (keeps the events so far)" });
  await cancel.waitFor({ state: "visible", timeout: 30000 });
  const line = await page.locator(".sim-progress").textContent();
  assert.match(line, /Simulating… [\d,]+ events, t=\d+s/);
  await cancel.click({ timeout: 10000 });
  await page.waitForFunction(() => window.__schedplay.simDone, null, { timeout: 10000, polling: 20 });
  const p = await probe(page);
  assert.ok(p.events > 0, "no events were kept");
  assert.ok(p.events < 9000 * 2, `${p.events} events: the run was not cut short`);
  const budget = page.locator("#budget");
  assert.match(await budget.textContent(), /^Cancelled: the simulation stopped at t=\d+(\.\d+)?s after \d+ events/);
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
