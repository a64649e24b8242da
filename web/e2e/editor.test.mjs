// End-to-end tests of the editor: links that keep the moment, the address
// bar while editing, drafts that survive, diagnostics and completion.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appendText, editorText, launch, probe, url } from "./helpers.mjs";
import { loadTS, web } from "../unit/load.mjs";

const basic = readFileSync(join(web, "..", "examples", "preemption-basic.yaml"), "utf8");
export const shotsDir = "/work/notes/shots/editor";

// openAt opens an address and waits until its first scene is drawn.
async function openAt(context, address) {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(address);
  await page.waitForFunction(() => window.__schedplay?.loads >= 1 && window.__schedplay.drawnGen >= 1, null, { timeout: 90000, polling: 50 });
  return page;
}

describe("links keep the moment", () => {
  let browser, context, P;
  before(async () => {
    P = await loadTS("permalink.ts");
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  });
  after(async () => browser?.close());

  test("a link copied at an event reopens on that event, paused", async () => {
    const page = await openAt(context, url);
    await page.evaluate((t) => window.__schedplaySetText(t), basic);
    await page.waitForFunction(() => window.__schedplay.simDone && !window.__schedplay.editPending, null, { polling: 50 });
    // Event 3 of the run, at t=0: the preemption of the report.
    await page.click("#tl-start");
    for (let i = 0; i < 3; i++) await page.click("#tl-fwd");
    const at = await probe(page);
    assert.equal(at.cursor, 2);
    await page.evaluate(() => { window.__schedplayShare.lastLink = ""; });
    await page.click("#copy-link");
    await page.waitForFunction(() => window.__schedplayShare.lastLink !== "");
    const link = await page.evaluate(() => window.__schedplayShare.lastLink);
    await page.close();

    const again = await openAt(context, link);
    await again.waitForFunction(() => window.__schedplay.cursor === 2, null, { timeout: 30000, polling: 50 });
    await again.waitForTimeout(1500); // it stays there: nothing plays on
    const p = await probe(again);
    assert.equal(p.cursor, 2, "the link's event is shown");
    assert.equal(p.now, at.now);
    assert.equal(await again.getAttribute("#tl-play", "aria-label"), "Play", "it opened paused");
    assert.match(await again.textContent("#tl-time"), / · event 3\/\d+$/);
    await again.screenshot({ path: join(shotsDir, "link-event-1280x720.png") });
    assert.deepEqual(again.errors, []);
    await again.close();
  });

  test("the address bar holds a link to the text after an edit", async () => {
    const page = await openAt(context, url);
    const before = await page.evaluate(() => location.href);
    const n = await page.evaluate(() => window.__schedplayShare.address);
    await appendText(page, "\n# an edit\n");
    await page.waitForFunction((b) => window.__schedplayShare.address > b, n, { polling: 50 });
    const address = await page.evaluate(() => location.href);
    assert.notEqual(address, before, "the address changed");
    const d = P.decode(new URL(address).hash);
    assert.ok(d.ok, d.error);
    assert.equal(d.link.yaml, await editorText(page), "the address opens the text on screen");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
