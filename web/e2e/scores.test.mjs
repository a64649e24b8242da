// End-to-end tests of the details panel's scores: the scores table shows
// the engine's raw, normalized and weighted scores (picked with the
// keyboard), and the plugins that did nothing for the pod are folded into
// disclosures a keyboard user opens. Screenshots of the panel go to
// SCORES_SHOTS (default web/e2e/screenshots) at 1280x720 and 400x300, light
// and dark.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { bridge, launch, open, replaceText, settled, shots } from "./helpers.mjs";

const shotDir = process.env.SCORES_SHOTS ?? shots;
mkdirSync(shotDir, { recursive: true });

// Three nodes where normalization changes the scores: untolerated
// PreferNoSchedule taints (TaintToleration), preferred node affinity terms
// and a ScheduleAnyway spread constraint over the zones.
const scenario = `apiVersion: v1
kind: Node
metadata: {name: node-a, labels: {topology.kubernetes.io/zone: zone-a, disk: ssd, gpu: "yes"}}
spec: {taints: [{key: t1, effect: PreferNoSchedule}, {key: t2, effect: PreferNoSchedule}]}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, labels: {topology.kubernetes.io/zone: zone-a, disk: ssd}}
spec: {taints: [{key: t1, effect: PreferNoSchedule}]}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: node-c, labels: {topology.kubernetes.io/zone: zone-b}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, labels: {app: web}}
spec: {nodeName: node-a, containers: [{name: app, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web-2, labels: {app: web}}
spec: {nodeName: node-c, containers: [{name: app, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers: [{name: app, image: nginx, resources: {requests: {cpu: 500m}}}]
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 5, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}
      - {weight: 3, preference: {matchExpressions: [{key: gpu, operator: In, values: ["yes"]}]}}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: web}}}
`;

// openDetails loads the scenario, lets the run end and opens the details
// of default/web by clicking it where the canvas draws it.
async function openDetails(page) {
  await replaceText(page, scenario);
  await page.waitForFunction(() => window.__schedplay.simDone && window.__schedplay.cursor === window.__schedplay.events - 1, null, { polling: 50, timeout: 60000 });
  await settled(page);
  const r = await bridge(page, "locate", "pod", "default/web");
  assert.ok(r.ok, "default/web is on the canvas");
  const box = await page.locator("#stage").boundingBox();
  await page.mouse.move(box.x + r.x + r.w / 2, box.y + r.y + r.h / 2);
  await page.mouse.down();
  await page.waitForTimeout(100);
  await page.mouse.up();
  await page.waitForSelector("#details:not([hidden]) table.scores-table");
}

// cells reads the scores table: its caption, the column headers (the
// corner, then one per node) and, per plugin row and the total row, the
// row header and cells.
const cells = (page) => page.$eval("#details table.scores-table", (t) => ({
  caption: t.caption?.textContent ?? "",
  heads: [...t.tHead.rows[0].cells].map((c) => ({ text: c.textContent, scope: c.getAttribute("scope"), sort: c.getAttribute("aria-sort") })),
  rows: [...t.tBodies[0].rows].map((r) => ({
    head: r.cells[0].textContent, scope: r.cells[0].getAttribute("scope"), sort: r.cells[0].getAttribute("aria-sort"),
    cells: [...r.cells].slice(1).map((c) => c.textContent),
  })),
}));
const nodeNames = (t) => t.heads.slice(1).map((h) => h.text.replace(/^★ /, ""));

const active = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a ? `${a.tagName.toLowerCase()}${a.closest("details") ? "@" + a.closest("details").className : ""}:${a.textContent.trim().slice(0, 60)}` : "";
});

describe("details panel scores", () => {
  let browser, context, page, ex;

  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    page = await open(context);
    await openDetails(page);
    const d = await bridge(page, "details", "pod", "default/web");
    ex = d.attempt.explanation;
  });
  after(async () => {
    await browser?.close();
  });

  test("the plugin x node table shows the engine's raw, normalized and weighted scores; arrow keys pick", async () => {
    const t0 = await cells(page);
    assert.ok(t0.heads.every((h) => h.scope === "col"), `every column header has scope col: ${JSON.stringify(t0.heads)}`);
    assert.ok(t0.rows.every((r) => r.scope === "row"), "every row header has scope row");
    assert.equal(t0.rows.at(-1).head, "Total");
    assert.ok(t0.rows.some((r) => r.head === "TaintToleration ×3"), `rows ${JSON.stringify(t0.rows.map((r) => r.head))}`);
    assert.deepEqual(nodeNames(t0).sort(), ex.nodes.filter((n) => n.feasible).map((n) => n.name).sort());
    const plugins = t0.rows.slice(0, -1).map((r) => r.head.replace(/ ×\d+$/, ""));
    // Each view's cells are the engine's numbers for that view.
    const check = async (view, field) => {
      const got = await cells(page);
      assert.equal(got.caption, `Scores of each plugin on each feasible node: ${view}`);
      const nodes = nodeNames(got).map((name) => ex.nodes.find((n) => n.name === name));
      got.rows.slice(0, -1).forEach((r, i) => assert.deepEqual(r.cells, nodes.map((n) => String(n[field][plugins[i]])), `${view} ${plugins[i]}`));
      assert.deepEqual(got.rows.at(-1).cells, nodes.map((n) => String(n.total)));
      return got;
    };
    await check("normalized", "scores");
    // The radio group: arrow keys move between the three views.
    await page.getByRole("radio", { name: "Normalized" }).focus();
    await page.keyboard.press("ArrowLeft");
    assert.equal(await page.getByRole("radio", { name: "Raw" }).isChecked(), true);
    const raw = await check("raw", "raw");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.getByRole("radio", { name: "Weighted" }).isChecked(), true);
    const weighted = await check("weighted", "weighted");
    // Normalization and weights change the numbers: TaintToleration counts
    // untolerated taints (node-a 2), normalized reversed, weighted x3.
    const taints = (t) => t.rows.find((r) => r.head.startsWith("TaintToleration")).cells;
    assert.notDeepEqual(taints(raw), taints(weighted));

    // A row header orders the node columns by that row, highest first.
    await page.getByRole("button", { name: /^TaintToleration/ }).click();
    const sorted = await cells(page);
    assert.equal(sorted.rows.find((r) => r.head.startsWith("TaintToleration")).sort, "descending");
    const shown = taints(sorted).map(Number);
    assert.deepEqual(shown, [...shown].sort((a, b) => b - a), `ordered by TaintToleration: ${shown}`);
    // The corner orders them by name, naturally.
    await page.locator("#details table.scores-table thead").getByRole("button", { name: /^Node/ }).click();
    const byName = await cells(page);
    assert.deepEqual(nodeNames(byName), ["node-a", "node-b", "node-c"]);
    assert.equal(byName.heads[0].sort, "ascending");
    await page.getByRole("button", { name: /^Total/ }).click();
    await page.getByRole("radio", { name: "Normalized" }).check();
  });

  test("the plugins that did nothing for the pod are folded; the keyboard opens and closes the fold", async () => {
    const folds = page.locator("#details details.skipped");
    assert.equal(await folds.count(), 2, "one fold under the filter table, one under the scores table");
    const score = page.locator("#details details.skipped-score");
    const filter = page.locator("#details details.skipped-filter");
    assert.equal(await score.evaluate((d) => d.open), false, "closed by default");
    assert.equal(await filter.evaluate((d) => d.open), false, "closed by default");
    const skipped = ex.skipped.score;
    assert.ok(skipped.length > 0, "the engine names plugins that skipped Score");
    assert.equal(await score.locator("summary").textContent(), `${skipped.length} plugins did nothing for this pod`);
    assert.equal(await filter.locator("summary").textContent(), `${ex.skipped.filter.length} plugins did nothing for this pod`);
    assert.equal(await score.getByRole("listitem").first().isVisible(), false, "the names are folded away");
    // Skipped plugins have no row in the scores table.
    const heads = (await cells(page)).rows.map((r) => r.head);
    for (const p of skipped) assert.ok(!heads.some((h) => h.startsWith(p)), `${p} has no row`);

    // Tab from the table's last header (Total) reaches the fold's summary.
    await page.getByRole("button", { name: /^Total/ }).focus();
    await page.keyboard.press("Tab");
    assert.match(await active(page), /^summary@skipped skipped-score:/);
    await page.keyboard.press("Enter");
    assert.equal(await score.evaluate((d) => d.open), true, "Enter opens the fold");
    assert.deepEqual(await score.getByRole("listitem").allTextContents(), skipped);
    assert.equal(await score.getByRole("listitem").first().isVisible(), true);
    // The why, with its term linked to the glossary.
    assert.match(await score.locator("p").textContent(), /PreScore returned Skip/);
    assert.equal(await score.locator("p a.term").count() > 0, true, "the explanation links the glossary");
    await page.keyboard.press("Space");
    assert.equal(await score.evaluate((d) => d.open), false, "Space closes it");
  });

  test("screenshots of the details panel: 1280x720 and 400x300, light and dark", async () => {
    for (const theme of ["light", "dark"]) {
      const want = theme;
      // The theme's button in the header at 1280 px (below 768 it is under Menu).
      await page.setViewportSize({ width: 1280, height: 720 });
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== want) await page.click("#theme");
      await page.locator("#details details.skipped-score summary").click();
      // The scores section at the top of the panel's scroll box.
      const toScores = () => page.locator("#details h3", { hasText: /^Scores$/ }).evaluate((e) => e.scrollIntoView({ block: "start" }));
      await page.waitForTimeout(300);
      await toScores();
      await page.screenshot({ path: join(shotDir, `details-1280x720-${theme}.png`) });
      await page.screenshot({ path: join(shotDir, `details-panel-1280x720-${theme}.png`), clip: await page.locator("#details").boundingBox() });
      await page.setViewportSize({ width: 400, height: 300 });
      await page.waitForTimeout(300);
      await toScores();
      await page.screenshot({ path: join(shotDir, `details-400x300-${theme}.png`) });
      // At 400 px the table scrolls within its box, never the page.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than 400`);
      await page.locator("#details details.skipped-score summary").click();
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  });
});
