// The notice of a scenario with errors ("Nothing to show yet: …", "Showing
// last valid scenario. …") takes its own place in the stage, above the
// canvas, at a projector's size (1280x720) and a phone's (390x844): it lies
// over no part of the canvas, whose top the canvas's own caption box takes
// (the notice used to cover it). On a desktop-sized window the page still
// fits the window, the canvas giving up the notice's height and re-laying
// out; the text fixed, the canvas has its place back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { axe, firstFrame, launch, settledStage, url, watch } from "./helpers.mjs";

const sizes = [[1280, 720], [390, 844]];
const broken = "apiVersion: v1\nkind: Node\nmetadata:\n  name: \"oops\n";
const good = "apiVersion: v1\nkind: Node\nmetadata:\n  name: fixed\n";

// layout reads the notice's and the canvas frame's boxes, in the viewport's
// coordinates (the phone's page is at its top here).
const layout = (page) => page.evaluate(() => {
  const box = (id) => {
    const b = document.getElementById(id).getBoundingClientRect();
    return { x: b.x, y: b.y, w: b.width, h: b.height };
  };
  return {
    notice: box("notice"),
    stage: box("stage"),
    page: { h: document.documentElement.scrollHeight, vh: innerHeight },
  };
});

const meets = (a, b) => a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 &&
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// seedDraft leaves a draft that does not load in the page's storage, as an
// earlier visit would: the page opens on it with nothing to show.
async function seedDraft(context) {
  const seed = await context.newPage();
  await seed.goto(new URL("stage.css", url).toString()); // any page of the origin
  await seed.evaluate((t) => localStorage.setItem("schedplay.draft", t), broken);
  await seed.close();
}

const loadedWith = (page, ok) => page.waitForFunction(
  (want) => !window.__schedplay.editPending && window.__schedplay.lastReply?.ok === want, ok, { polling: 50, timeout: 60000 });

for (const [width, height] of sizes) {
  for (const kind of ["nothing to show", "last valid scenario"]) {
    const where = `${width}x${height}, ${kind}`;
    test(`${where}: the notice lies over no part of the canvas`, async () => {
      const browser = await launch();
      try {
        // axe-core comes in as a script tag, which the page's CSP would refuse.
        const context = await browser.newContext({ viewport: { width, height }, locale: "en-US", bypassCSP: true });
        let ref = null;
        if (kind === "nothing to show") await seedDraft(context);
        const page = watch(await context.newPage());
        await page.goto(url);
        if (kind === "last valid scenario") {
          await firstFrame(page);
          ref = (await layout(page)).stage;
          await page.evaluate((t) => window.__schedplaySetText(t), broken);
          await loadedWith(page, false);
        } else {
          await page.waitForFunction(() => window.__schedplay.lastReply?.ok === false, null, { polling: 50, timeout: 90000 });
        }
        await page.waitForSelector("#notice:not([hidden])");
        const title = kind === "nothing to show" ? "Nothing to show yet: the scenario has errors." : "Showing last valid scenario.";
        assert.equal(await page.textContent("#notice-title"), title);
        assert.match(await page.textContent("#notice-text"), /^1 error\. Line 4, column 9: /);

        const shown = await layout(page);
        assert.ok(shown.notice.h > 0, `${where}: the notice shows`);
        assert.ok(!meets(shown.notice, shown.stage), `${where}: the notice covers the canvas: ${JSON.stringify(shown)}`);
        assert.ok(shown.notice.y + shown.notice.h <= shown.stage.y + 0.5, `${where}: the notice is above the canvas: ${JSON.stringify(shown)}`);
        if (width >= 768) {
          assert.ok(shown.page.h <= shown.page.vh, `${where}: the page fits the window: ${JSON.stringify(shown.page)}`);
          if (ref) assert.ok(Math.abs(shown.stage.h + shown.notice.h - ref.h) <= 1, `${where}: the canvas gives up the notice's height: ${JSON.stringify({ ref, shown })}`);
        }
        await settledStage(page, [shown.stage.w, shown.stage.h]);
        if (kind === "last valid scenario") {
          for (const theme of ["light", "dark"]) {
            await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
            // The notice alone: its words' contrast on its band.
            const bad = await axe(page, page.mainFrame(), "#notice");
            assert.deepEqual(bad, [], `${where} ${theme}: ${bad.join("\n")}`);
          }
        }

        // Fixed, the notice goes and the canvas takes its height back.
        await page.evaluate((t) => window.__schedplaySetText(t), good);
        await loadedWith(page, true);
        const after = await layout(page);
        assert.equal(await page.isVisible("#notice"), false, `${where}: the notice is gone`);
        assert.ok(Math.abs(after.stage.y - shown.notice.y) <= 1, `${where}: the canvas is back at the notice's place: ${JSON.stringify({ shown, after })}`);
        if (ref) for (const k of ["x", "y", "w", "h"]) assert.ok(Math.abs(after.stage[k] - ref[k]) <= 1, `${where}: the canvas's ${k} back to ${ref[k]}: ${after.stage[k]}`);
        await settledStage(page, [after.stage.w, after.stage.h]);
        assert.deepEqual(page.errors, []);
        await context.close();
      } finally {
        await browser.close();
      }
    });
  }
}
