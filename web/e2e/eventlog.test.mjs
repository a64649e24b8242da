// The event log by keyboard, in headless Chromium: it is one Tab stop (Tab
// comes in at the shown event and one more Tab leaves), ↑ ↓ Home End Page
// Up Page Down move between rows, Enter and Space show a row's event (the
// timeline moves), → reaches a row's glossary terms, playback marks the
// shown row without taking the focus, and axe finds nothing serious with
// the focus in the log. Screenshots of the focused log: SCHEDPLAY_SHOTS or
// web/e2e/screenshots/eventlog.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { axe, launch, open, probe, settled } from "./helpers.mjs";

const shotDir = process.env.SCHEDPLAY_SHOTS ?? join(import.meta.dirname, "screenshots", "eventlog");
mkdirSync(shotDir, { recursive: true });

// A cluster too small for its pods: every pod is queued and scheduled or
// found unschedulable, some preempt; a few hundred events, more than the
// log shows at once.
function scenario(pods) {
  const out = [];
  for (let i = 0; i < 4; i++) {
    out.push(`---\napiVersion: v1\nkind: Node\nmetadata: {name: node-${i}}\nstatus: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}\n`);
  }
  out.push("---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n");
  for (let i = 0; i < pods; i++) {
    out.push(`---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-${i}}\nspec:\n` +
      (i % 7 === 6 ? "  priorityClassName: high\n" : "") +
      "  containers: [{name: c, image: pause, resources: {requests: {cpu: 500m, memory: 1Gi}}}]\n");
  }
  return out.join("");
}

async function load(page, text) {
  const before = (await probe(page)).loads;
  await page.evaluate((t) => window.__schedplaySetText(t), text);
  await page.waitForFunction((b) => window.__schedplay.loads > b && !window.__schedplay.editPending && window.__schedplay.simDone, before, { polling: 50, timeout: 60000 });
  // Every event has its row (they are built after the frame, in chunks).
  await page.waitForFunction(() => document.querySelectorAll("#log-list li.row").length === Math.min(3000, window.__schedplay.events), null, { polling: 50, timeout: 30000 });
  await settled(page);
}

// focused describes the focus: where it is in the log (row, part) or the
// id of what has it elsewhere.
const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  const row = a?.closest("#log-list li.row");
  if (!row) return { outside: a?.id || a?.tagName.toLowerCase() };
  return {
    seq: Number(row.dataset.seq),
    part: a.classList.contains("jump") ? "button" : a.tagName.toLowerCase(),
    text: a.textContent,
    current: a.getAttribute("aria-current"),
  };
});

// inView says whether the focused row (the focused element, if the row is
// taller than the log) is wholly inside the log's scrolled box and the
// window.
const inView = (page) => page.evaluate(() => {
  const log = document.getElementById("log");
  const row = document.activeElement.closest("li");
  const a = (row.offsetHeight <= log.clientHeight ? row : document.activeElement).getBoundingClientRect();
  const b = log.getBoundingClientRect();
  const top = b.top + log.clientTop;
  const ok = a.top >= top - 0.5 && a.bottom <= top + log.clientHeight + 0.5 && a.top >= -0.5 && a.bottom <= window.innerHeight + 0.5;
  return ok || `not in view: ${JSON.stringify({ row: [a.top, a.bottom], log: [top, top + log.clientHeight], window: innerHeight })}`;
});

const tabStops = (page) => page.evaluate(() => ({
  buttons: document.querySelectorAll("#log-list [tabindex='0']").length,
  links: document.querySelectorAll("#log-list a:not([tabindex='-1'])").length,
}));

async function setTheme(page, theme) {
  await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
  await page.waitForTimeout(300);
}

describe("the event log by keyboard", () => {
  let browser, context, page;
  before(async () => {
    browser = await launch();
    // axe-core is injected as a script tag, which the page's CSP would refuse.
    context = await browser.newContext({ viewport: { width: 1280, height: 720 }, bypassCSP: true });
    page = await open(context);
    await load(page, scenario(120));
  });
  after(async () => { await browser?.close(); });

  test("Tab reaches the log once, at the shown event, and one more Tab leaves it", async () => {
    const p = await probe(page);
    assert.ok(p.events > 60, `only ${p.events} events`);
    assert.deepEqual(await tabStops(page), { buttons: 1, links: 0 }, "one Tab stop among the rows");
    await page.focus("#tl-text"); // the control before the log
    await page.keyboard.press("Tab");
    const inLog = await focused(page);
    assert.equal(inLog.part, "button", `Tab came to ${JSON.stringify(inLog)}`);
    assert.equal(inLog.seq, p.cursor, "Tab comes in at the shown event");
    assert.equal(inLog.current, "true", "the shown event's row is marked aria-current");
    assert.equal(await inView(page), true, "the focused row is in view");
    await page.keyboard.press("Tab");
    const out = await focused(page);
    assert.ok(out.outside !== undefined, `one more Tab leaves the log: ${JSON.stringify(out)}`);
    await page.keyboard.press("Shift+Tab");
    assert.deepEqual(await focused(page), inLog, "Shift+Tab comes back to the same row");
    await page.keyboard.press("Shift+Tab");
    assert.deepEqual(await focused(page), { outside: "tl-text" }, "Shift+Tab leaves it backwards");
  });

  test("arrows, Page keys, Home and End move between rows; Enter and Space show the event", async () => {
    await page.focus("#tl-text");
    await page.keyboard.press("Tab");
    const last = (await probe(page)).events - 1;
    const cursor = (await probe(page)).cursor;
    await page.keyboard.press("Home");
    assert.equal((await focused(page)).seq, 0, "Home: the first row");
    assert.equal((await probe(page)).cursor, cursor, "Home in the log moves the focus, not the playhead");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    assert.equal((await focused(page)).seq, 2);
    await page.keyboard.press("ArrowUp");
    assert.equal((await focused(page)).seq, 1);
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    assert.equal((await focused(page)).seq, 0, "↑ stops at the first row");
    await page.keyboard.press("PageDown");
    const pageRows = (await focused(page)).seq;
    assert.ok(pageRows > 1, `Page Down moved ${pageRows} rows`);
    assert.equal(await inView(page), true, "the row Page Down reached is in view");
    await page.keyboard.press("End");
    assert.equal((await focused(page)).seq, last, "End: the last row");
    assert.equal(await inView(page), true, "the last row is in view");
    await page.keyboard.press("PageUp");
    assert.equal((await focused(page)).seq, last - pageRows);
    assert.equal(await inView(page), true);
    assert.deepEqual(await tabStops(page), { buttons: 1, links: 0 }, "the Tab stop moved with the focus");

    // Enter shows the focused row's event: the timeline moves there.
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowDown");
    const time = await page.textContent("#tl-time");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => window.__schedplay.cursor === 1, null, { timeout: 5000 });
    assert.notEqual(await page.textContent("#tl-time"), time, "the timeline shows the event");
    assert.match(await page.textContent("#tl-time"), /event 2\//);
    const f = await focused(page);
    assert.deepEqual([f.seq, f.part, f.current], [1, "button", "true"], "the focus stays on the shown row, marked current");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press(" ");
    await page.waitForFunction(() => window.__schedplay.cursor === 3, null, { timeout: 5000 });
    assert.equal(await page.getAttribute("#tl-play", "aria-label"), "Play", "Space showed the event, it did not start playback");
  });

  test("→ reaches a row's glossary term, Enter opens it, Esc returns, ← goes back", async () => {
    const seq = await page.evaluate(() => Number(document.querySelector("#log-list li.row:has(a.term)")?.dataset.seq ?? -1));
    assert.ok(seq >= 0, "a row with a glossary term");
    await page.focus("#tl-text");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Home");
    for (let i = 0; i < seq; i++) await page.keyboard.press("ArrowDown");
    assert.equal((await focused(page)).seq, seq);
    await page.keyboard.press("ArrowRight");
    const link = await focused(page);
    assert.deepEqual([link.seq, link.part], [seq, "a"], "→ goes to the row's first term");
    assert.equal(await inView(page), true, "the term is in view");
    await page.screenshot({ path: join(shotDir, "term-focus-1280x720.png") });
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Glossary" });
    await dialog.waitFor();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    assert.deepEqual(await focused(page), link, "Esc returns to the term");
    await page.keyboard.press("ArrowLeft");
    assert.deepEqual([(await focused(page)).seq, (await focused(page)).part], [seq, "button"], "← goes back to the row's button");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Tab");
    assert.ok((await focused(page)).outside !== undefined, "Tab from a term leaves the log");
  });

  test("l hides the log from inside it: the focus goes to the Events button", async () => {
    await page.focus("#tl-text");
    await page.keyboard.press("Tab");
    await page.keyboard.press("l");
    assert.equal(await page.getAttribute("#tl-log", "aria-pressed"), "false");
    assert.deepEqual(await focused(page), { outside: "tl-log" });
    await page.keyboard.press("l");
    assert.equal(await page.isVisible("#log"), true);
  });

  test("playback marks the shown row and scrolls the log without taking the focus", async () => {
    await page.focus("#tl-text");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Home");
    const scroll = await page.$eval("#log", (l) => l.scrollTop);
    // Play from the start at 16x by the controls' events (not their focus).
    await page.evaluate(() => {
      const speed = document.getElementById("tl-speed");
      speed.value = "16";
      speed.dispatchEvent(new Event("change"));
      document.getElementById("tl-start").click();
      document.getElementById("tl-play").click();
    });
    await page.waitForFunction(() => window.__schedplay.cursor >= 30, null, { timeout: 30000, polling: 50 });
    assert.deepEqual([(await focused(page)).seq, (await focused(page)).part], [0, "button"], "the focus stayed on its row");
    assert.equal(await page.$eval("#log", (l) => l.scrollTop), scroll, "the log did not scroll under the focus");
    const marked = await page.evaluate(() => [...document.querySelectorAll("#log-list [aria-current]")].map((b) => Number(b.closest("li").dataset.seq)));
    assert.equal(marked.length, 1, "one row is current");
    assert.ok(marked[0] >= 30, `the current row follows the playhead: ${marked}`);
    // With the focus elsewhere the log follows the playhead.
    await page.focus("#tl-text");
    await page.waitForFunction(() => {
      const c = document.querySelector("#log-list [aria-current]")?.closest("li");
      if (!c || window.__schedplay.cursor < 40) return false;
      const log = document.getElementById("log"), r = c.getBoundingClientRect(), b = log.getBoundingClientRect();
      return r.top >= b.top && r.bottom <= b.top + log.clientTop + log.clientHeight + 0.5;
    }, null, { timeout: 30000, polling: 50 });
    await page.evaluate(() => document.getElementById("tl-play").click());
    await page.keyboard.press("Tab");
    const f = await focused(page);
    assert.equal(f.current, "true", `Tab comes in at the shown event: ${JSON.stringify(f)}`);
    assert.equal(f.seq, (await probe(page)).cursor);
  });

  test("axe: no serious or critical violation with the focus in the log, both themes", async () => {
    for (const theme of ["light", "dark"]) {
      await setTheme(page, theme);
      await page.focus("#tl-text");
      await page.keyboard.press("Tab");
      await page.keyboard.press("ArrowDown");
      assert.deepEqual(await axe(page), [], theme);
    }
    await setTheme(page, "light");
  });

  test("screenshots of the focused log: 1280x720 and 390x844, light and dark", async () => {
    for (const [w, h] of [[1280, 720], [390, 844]]) {
      const ctx = await browser.newContext({ viewport: { width: w, height: h }, ...(w < 768 ? { isMobile: true, hasTouch: true } : {}) });
      const p = await open(ctx);
      await load(p, scenario(120));
      await p.focus("#tl-text");
      await p.keyboard.press("Tab");
      await p.keyboard.press("ArrowUp");
      await p.keyboard.press("ArrowUp");
      assert.equal(await inView(p), true, `${w}x${h}: the focused row is in view`);
      for (const theme of ["light", "dark"]) {
        await setTheme(p, theme);
        await p.screenshot({ path: join(shotDir, `log-focus-${w}x${h}-${theme}.png`) });
      }
      await p.keyboard.press("ArrowRight");
      await p.screenshot({ path: join(shotDir, `term-focus-${w}x${h}-dark.png`) });
      assert.deepEqual(p.errors, []);
      await ctx.close();
    }
  });

  // A press focuses its row at once, and a focused row grows to show all
  // its words. Revealing the grown row then scrolled the page under the
  // pointer, so the button was let go over another part of the page and
  // the click showed nothing: on a phone the log runs off the window's
  // bottom, where a reader taps it.
  test("390x844: a press or a tap on a row at the window's bottom edge shows its event", async () => {
    for (const touch of [false, true]) {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, ...(touch ? { hasTouch: true, isMobile: true } : {}) });
      const p = await open(ctx);
      await settled(p); // the opening example: the page around the log scrolls
      await p.waitForFunction(() => document.querySelectorAll("#log-list li.row").length > 3);
      await p.evaluate(() => document.getElementById("tl-start").click());
      // The first row whose words wrap when it has the focus, its button's
      // bottom at the window's bottom edge: the log scrolled to put the row
      // at its top, the page scrolled to put the log's top at the window's
      // bottom (the rows in view laid out first).
      const seq = await p.evaluate(() => [...document.querySelectorAll("#log-list li.row")].find((li) => {
        const line = li.querySelector(".line");
        return line.scrollWidth > line.clientWidth + 40;
      })?.dataset.seq);
      assert.ok(seq !== undefined, "a row whose words are cut");
      const row = p.locator(`#log-list li.row[data-seq="${seq}"]`);
      const place = () => row.evaluate((li) => {
        const log = document.getElementById("log");
        log.scrollTop += li.getBoundingClientRect().top - log.getBoundingClientRect().top - log.clientTop;
        scrollBy(0, li.querySelector(".jump").getBoundingClientRect().bottom - innerHeight + 1);
        const box = log.getBoundingClientRect();
        return box.bottom > innerHeight + 40 || `the log ends at ${box.bottom}, not below the window's bottom`;
      });
      assert.equal(await place(), true);
      await p.waitForTimeout(200);
      assert.equal(await place(), true);
      const box = await row.locator(".jump").boundingBox();
      const at = { x: box.x + 20, y: box.y + box.height - 4 }; // low on the button
      assert.equal(await p.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest("li.row")?.dataset.seq, at), seq, "the press is on the row");
      if (touch) {
        await p.touchscreen.tap(at.x, at.y);
      } else {
        const scrolled = () => p.evaluate(() => [scrollY, document.getElementById("log").scrollTop]);
        const down = await scrolled();
        await p.mouse.move(at.x, at.y);
        await p.mouse.down();
        await p.waitForTimeout(100);
        assert.deepEqual(await scrolled(), down, "neither the page nor the log moves under a pressed button");
        await p.mouse.up();
      }
      await p.waitForFunction((n) => window.__schedplay.cursor === n, Number(seq), { timeout: 5000 });
      assert.ok(await row.evaluate((li) => li.classList.contains("current")), "the pressed row is the shown one");
      // Once clicked, the row (grown, with the focus) is brought into view.
      await p.waitForTimeout(200);
      assert.equal(await inView(p), true, touch ? "tap" : "press");
      assert.deepEqual(p.errors, []);
      await ctx.close();
    }
  });

  test("a busy run: 3,000 rows are still one Tab stop, End reaches the last", async () => {
    await load(page, scenario(1700));
    assert.equal(await page.locator("#log-list li.row").count(), 3000);
    assert.deepEqual(await tabStops(page), { buttons: 1, links: 0 });
    await page.focus("#tl-text");
    await page.keyboard.press("Tab");
    await page.keyboard.press("End");
    assert.equal((await focused(page)).seq, 2999);
    assert.equal(await inView(page), true);
    await page.keyboard.press("Tab");
    assert.ok((await focused(page)).outside !== undefined, "one more Tab leaves the log");
    // How long a role query over the whole page takes (Playwright names
    // every button it passes): a figure, not a limit.
    const t0 = Date.now();
    await page.getByRole("button", { name: "Text view" }).count();
    console.log(`# getByRole over the page with 3,000 rows: ${Date.now() - t0} ms`);
    assert.deepEqual(page.errors, []);
  });
});
