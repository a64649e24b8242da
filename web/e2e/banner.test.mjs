// The notice banner of the playground page (share.ts) takes its own place
// under the header and pushes the page down, at a phone's size, a
// projector's (1280x720) and a desktop's: it covers none of the header's
// controls, the lesson panel or the canvas, and a control the keyboard
// reaches is in full view (WCAG 2.2 SC 2.4.11, Focus Not Obscured). On a
// desktop-sized window the page still fits the window, the canvas giving
// up the banner's height and resizing its drawing buffer; dismissed, the
// canvas has its place back and the keyboard's focus goes back where it
// was before it entered the banner.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { axe, firstFrame, launch, settledStage, url, watch } from "./helpers.mjs";
import { loadTS, web } from "../unit/load.mjs";

const sizes = [[390, 844], [1280, 720], [1920, 1080]];

// sharedLink is the address of a link to the preemption example.
const P = await loadTS("permalink.ts");
const basic = readFileSync(join(web, "..", "examples", "preemption-basic.yaml"), "utf8");
const sharedLink = (view = {}) => new URL("#" + P.encode({ yaml: basic, seed: 0, engine: "v1.36", view }), url).toString();

const ready = firstFrame;

// layout reads the boxes that matter, in the viewport's coordinates (the
// phone's page scrolls; it is at its top here).
const layout = (page) => page.evaluate(() => {
  const box = (e) => {
    const b = e.getBoundingClientRect();
    return { name: e.id || e.textContent.trim(), x: b.x, y: b.y, w: b.width, h: b.height };
  };
  const shown = (e) => e.getClientRects().length > 0;
  return {
    banner: box(document.getElementById("share-banner")),
    controls: [...document.querySelectorAll("header a, header button, header select")].filter(shown).map(box),
    lesson: shown(document.getElementById("lesson")) ? box(document.getElementById("lesson")) : null,
    stage: box(document.getElementById("stage")),
    page: { h: document.documentElement.scrollHeight, w: document.documentElement.scrollWidth, vh: innerHeight, vw: innerWidth },
  };
});

const meets = (a, b) => a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 &&
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

// inView reports whether the focused element is what the pointer would hit
// at its centre and near each corner: nothing lies over it.
const inView = (page) => page.evaluate(() => {
  const e = document.activeElement;
  // A link wrapped over two lines: its first line's box.
  const b = e.getClientRects()[0];
  // Near each corner: inside a rounded corner's arc (radius 6 px or less).
  const dx = Math.min(6, b.width / 4), dy = Math.min(6, b.height / 4);
  const points = [[b.x + b.width / 2, b.y + b.height / 2], [b.x + dx, b.y + dy], [b.right - dx, b.y + dy], [b.x + dx, b.bottom - dy], [b.right - dx, b.bottom - dy]];
  const hidden = points.map(([x, y]) => [x, y, document.elementFromPoint(x, y)]).filter(([, , at]) => !at || !e.contains(at))
    .map(([x, y, at]) => `(${Math.round(x)},${Math.round(y)}) ${at ? at.id || at.className || at.tagName : "nothing"}`);
  return { name: e.id || e.textContent.trim(), hidden };
});

// clear asserts that the shown banner lies over nothing it must not.
function clear(l, where) {
  assert.ok(l.banner.h > 0, `${where}: the banner shows`);
  for (const c of l.controls) assert.ok(!meets(l.banner, c), `${where}: the banner covers the header's ${c.name}: ${JSON.stringify([l.banner, c])}`);
  if (l.lesson) assert.ok(!meets(l.banner, l.lesson), `${where}: the banner covers the lesson panel: ${JSON.stringify([l.banner, l.lesson])}`);
  assert.ok(!meets(l.banner, l.stage), `${where}: the banner covers the canvas: ${JSON.stringify([l.banner, l.stage])}`);
  if (l.page.vw >= 768) {
    assert.ok(l.page.h <= l.page.vh && l.page.w <= l.page.vw, `${where}: the page fits the window: ${JSON.stringify(l.page)}`);
  }
}

// tabHeader puts the focus on the header's first control and presses Tab
// through the others, each in full view, and on to the control after them;
// it returns the last header control and what Tab reached after it.
async function tabHeader(page, where) {
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    [...document.querySelectorAll("header a, header button")].find((e) => e.offsetParent !== null).focus();
  });
  let last = "";
  for (let i = 0; i < 20; i++) {
    if (i > 0) await page.keyboard.press("Tab");
    const inHeader = await page.evaluate(() => !!document.activeElement?.closest("header"));
    const v = await inView(page);
    assert.deepEqual(v.hidden, [], `${where}: Tab to ${v.name}: points of it under something else`);
    if (!inHeader) return { last, next: v.name };
    last = v.name;
  }
  assert.fail(`${where}: Tab never left the header`);
}

// A damaged lesson link opens the lesson from its start and says so in an
// alert: the banner, the lesson panel and the canvas at once.
for (const [width, height] of sizes) {
  const where = `${width}x${height}`;
  test(`${where}: the banner takes its own place, nothing under it, the canvas resized`, async () => {
    const browser = await launch();
    try {
      // axe-core comes in as a script tag, which the page's CSP would refuse.
      const context = await browser.newContext({ viewport: { width, height }, locale: "en-US", bypassCSP: true });
      const plain = watch(await context.newPage());
      await plain.goto(new URL("index.html?lesson=preemption-basic", url).toString());
      await ready(plain);
      await plain.locator(".course-bar").waitFor();
      const ref = (await layout(plain)).stage;
      await plain.close();

      const page = watch(await context.newPage());
      await page.goto(new URL("index.html?lesson=preemption-basic#v1.zzzzzzzzzzzz", url).toString());
      await ready(page);
      await page.locator(".course-bar").waitFor();
      const banner = page.getByRole("alert").filter({ hasText: "Could not open the link." });
      await banner.waitFor();
      const shown = await layout(page);
      clear(shown, where);
      if (width >= 768) {
        assert.ok(Math.abs(shown.stage.h + shown.banner.h - ref.h) <= 1, `${where}: the canvas gives up the banner's height: ${JSON.stringify({ ref, shown: shown.stage, banner: shown.banner.h })}`);
      }
      await settledStage(page, [shown.stage.w, shown.stage.h]);
      for (const theme of ["light", "dark"]) {
        await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
        const bad = await axe(page);
        assert.deepEqual(bad, [], `${where} ${theme}: ${bad.join("\n")}`);
      }

      // The keyboard: each header control in full view, then the banner's
      // own dismiss button, which gives the focus back to where it was.
      const { last, next } = await tabHeader(page, where);
      assert.equal(next, "share-dismiss", `${where}: after the header, Tab reaches the banner`);
      await page.keyboard.press("Enter");
      assert.equal(await page.locator("#share-banner").textContent(), "", `${where}: dismissed`);
      const focus = await page.evaluate(() => document.activeElement === document.body ? "body" : document.activeElement.id);
      assert.equal(focus, last, `${where}: the focus goes back where it was, not to <body>`);

      // The canvas has its place back, as without the banner.
      await page.waitForFunction((h) => Math.abs(document.getElementById("stage").getBoundingClientRect().height - h) <= 1, ref.h, { timeout: 5000 })
        .catch(() => {});
      const after = await layout(page);
      assert.equal(after.banner.h, 0, `${where}: the empty banner takes no space`);
      for (const k of ["x", "y", "w", "h"]) assert.ok(Math.abs(after.stage[k] - ref[k]) <= 1, `${where}: the canvas's ${k} back to ${ref[k]}: ${after.stage[k]}`);
      await settledStage(page, [after.stage.w, after.stage.h]);
      assert.deepEqual(page.errors, []);
      await context.close();
    } finally {
      await browser.close();
    }
  });
}

// A lesson the course does not have: a status banner, with links, over
// the default scenario; on a phone it sits between the header and the
// canvas, not over the header's buttons. Its × clicked, the focus moves to
// what is in view.
for (const [width, height] of sizes.slice(0, 2)) {
  const where = `${width}x${height}`;
  test(`${where}: an unknown lesson's notice covers no control`, async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width, height }, locale: "en-US" });
      const page = watch(await context.newPage());
      await page.goto(new URL("index.html?lesson=nope", url).toString());
      await ready(page);
      await page.getByRole("status").filter({ hasText: "There is no lesson named “nope”." }).waitFor();
      clear(await layout(page), where);
      await tabHeader(page, where);
      if (width >= 768) {
        // In presenter mode the notice is read from the back of a room.
        await page.getByRole("button", { name: "Present" }).click();
        const px = await page.locator("#share-banner").evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
        assert.ok(px >= 18, `${where}: the notice is ${px} px in presenter mode`);
        await page.locator("#presenter").click();
      }
      // Dismissed with the pointer: the focus goes to something in view
      // (the canvas, on a phone), not to <body>, and the page stays put.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByRole("button", { name: "Dismiss" }).click();
      assert.equal(await page.locator("#share-banner").textContent(), "", `${where}: dismissed`);
      const after = await page.evaluate(() => ({ focus: document.activeElement === document.body ? "body" : document.activeElement.id, y: scrollY }));
      assert.notEqual(after.focus, "body", `${where}: the focus is not dropped`);
      assert.equal(after.y, 0, `${where}: the page did not scroll`);
      assert.deepEqual(page.errors, []);
      await context.close();
    } finally {
      await browser.close();
    }
  });
}

// seedDraft leaves a draft in the page's storage, as an earlier visit would,
// for a shared link to keep aside (its banner then has a Restore button).
async function seedDraft(context) {
  const seed = await context.newPage();
  await seed.goto(new URL("stage.css", url).toString()); // any page of the origin
  await seed.evaluate(() => localStorage.setItem("schedplay.draft", "# my unsaved draft\napiVersion: v1\nkind: Node\nmetadata: {name: draft-node}\n"));
  await seed.close();
}

const focusName = (page) => page.evaluate(() => document.activeElement === document.body ? "body" : document.activeElement.id);

// A shared link over a draft: the banner's Restore button puts the draft
// back and says so in a new message, the focus staying on Restore; the
// message dismissed, the focus goes back to where it came from.
test("Restore keeps the focus in the banner, dismiss gives it back", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    await seedDraft(context);
    const page = watch(await context.newPage());
    await page.goto(sharedLink());
    await ready(page);
    await page.getByRole("status").filter({ hasText: "Opened a shared scenario." }).waitFor();
    clear(await layout(page), "1280x720");
    await page.focus("#help");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), "share-restore", "Tab from the header reaches Restore");
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "Previous draft restored." }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement.id), "share-restore", "the focus stays on Restore");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    assert.equal(await page.locator("#share-banner").textContent(), "", "dismissed");
    assert.equal(await page.evaluate(() => document.activeElement.id), "help", "the focus is back where it came from");
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});

// Esc with the focus in the banner dismisses it as its × does, the focus
// going back where it came from; it does nothing else (the details panel
// stays open, presenter mode stays on). Esc elsewhere is the page's, as
// before.
test("Esc in the banner dismisses it, and only it", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    await seedDraft(context);
    const page = watch(await context.newPage());
    await page.goto(sharedLink({ pod: "default/critical" }));
    await ready(page);
    await page.getByRole("status").filter({ hasText: "Opened a shared scenario." }).waitFor();
    await page.waitForSelector("#details:not([hidden])");
    await page.focus("#help");
    await page.keyboard.press("Tab");
    assert.equal(await focusName(page), "share-restore", "Tab from the header reaches Restore");
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#share-banner").textContent(), "", "Esc on Restore dismissed the banner");
    assert.equal(await focusName(page), "help", "the focus is back where it came from");
    assert.equal(await page.locator("#details").isVisible(), true, "the same Esc left the details panel open");
    await page.keyboard.press("Escape");
    await page.waitForSelector("#details[hidden]", { state: "attached", timeout: 5000 });

    // Presenter mode takes Esc before the page does: with the focus in the
    // banner, Esc still dismisses the banner and presenter mode stays on.
    await page.goto(new URL("index.html?lesson=preemption-basic#v1.zzzzzzzzzzzz", url).toString());
    await ready(page);
    await page.getByRole("alert").filter({ hasText: "Could not open the link." }).waitFor();
    await page.getByRole("button", { name: "Present" }).click();
    await page.waitForFunction(() => window.__schedplayPresenter.on);
    await page.focus("#share-dismiss"); // from Present, which has the focus
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#share-banner").textContent(), "", "Esc on × dismissed the banner");
    assert.equal(await focusName(page), "presenter", "the focus is back on Present");
    assert.equal(await page.evaluate(() => window.__schedplayPresenter.on), true, "the same Esc did not leave presenter mode");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !window.__schedplayPresenter.on, null, { timeout: 5000 });
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});

// A message with a button besides ×: on a phone its words take the
// banner's width and the buttons go under them, not beside them in a
// column of a few words a line; on a projector and a desktop the buttons
// stay beside the words. At the phone's size, Esc on a button the focus
// was put on from nowhere moves the focus to what is in view, as a tap on
// × does, without scrolling.
for (const [width, height] of sizes) {
  const where = `${width}x${height}`;
  test(`${where}: a message's words have the width, its buttons fit around them`, async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width, height }, locale: "en-US" });
      await seedDraft(context);
      const page = watch(await context.newPage());
      await page.goto(sharedLink());
      await ready(page);
      await page.getByRole("status").filter({ hasText: "Opened a shared scenario." }).waitFor();
      clear(await layout(page), where);
      const m = await page.evaluate(() => {
        const banner = document.getElementById("share-banner"), s = getComputedStyle(banner);
        const box = (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
        return {
          inner: banner.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
          body: box(banner.querySelector(".share-body")),
          actions: box(banner.querySelector(".share-actions")),
        };
      });
      const below = m.actions.y >= m.body.y + m.body.h - 1;
      if (width < 768) {
        assert.ok(m.body.w >= 0.8 * m.inner, `${where}: the words have ${Math.round(m.body.w)} px of the banner's ${Math.round(m.inner)}: ${JSON.stringify(m)}`);
        assert.ok(below, `${where}: the buttons lie under the words: ${JSON.stringify(m)}`);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.evaluate(() => document.getElementById("share-restore").focus());
        await page.keyboard.press("Escape");
        assert.equal(await page.locator("#share-banner").textContent(), "", `${where}: Esc dismissed the banner`);
        const after = await page.evaluate(() => ({ focus: document.activeElement === document.body ? "body" : document.activeElement.id, y: scrollY }));
        assert.notEqual(after.focus, "body", `${where}: the focus is not dropped`);
        assert.equal(after.y, 0, `${where}: the page did not scroll`);
      } else {
        assert.ok(!below && m.actions.x >= m.body.x + m.body.w, `${where}: the buttons stay beside the words: ${JSON.stringify(m)}`);
      }
      assert.deepEqual(page.errors, []);
      await context.close();
    } finally {
      await browser.close();
    }
  });
}
