// Accessibility of the playground in headless Chromium: the keyboard gets
// into and out of the canvas and to every control, arrow keys move a focus
// over the canvas and Enter opens details, the text view reads the cluster,
// axe-core finds no serious or critical violation on the playground, the
// gallery and an embed.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { axe, ended, key, launch, open, probe, settled, url } from "./helpers.mjs";

// Screenshots people look at (not checked in): SCHEDPLAY_SHOTS or web/e2e/screenshots.
const shotDir = process.env.SCHEDPLAY_SHOTS ?? join(import.meta.dirname, "screenshots", "a11y");
mkdirSync(shotDir, { recursive: true });

// active names what has the keyboard focus: an element id of the page, or
// "canvas" when the focus is on ebiten's canvas inside the stage frame.
async function active(page) {
  const id = await page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return "";
    if (a.id === "stage") return "stage";
    return a.id || a.closest("[id]")?.id + ">" + a.tagName.toLowerCase();
  });
  if (id !== "stage") return id;
  const inFrame = await page.frame({ url: /stage\.html/ }).evaluate(() => document.activeElement?.tagName.toLowerCase());
  return inFrame === "canvas" ? "canvas" : "stage>" + inFrame;
}

// tabTo presses Tab (or Shift+Tab) until the focus is on want, at most n
// times; it returns the focus stops passed on the way.
async function tabTo(page, want, { back = false, n = 60 } = {}) {
  const seen = [];
  for (let i = 0; i < n; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    const a = await active(page);
    seen.push(a);
    if (a === want) return seen;
  }
  assert.fail(`no ${want} after ${n} presses of ${back ? "Shift+Tab" : "Tab"}: ${seen.join(", ")}`);
}

// plain loads preemption-basic without its Lesson document: a lesson's
// questions take canvas clicks as answers, and these tests open details.
const plainText = readFileSync(join(import.meta.dirname, "..", "..", "examples", "preemption-basic.yaml"), "utf8")
  .split(/^---$/m).filter((d) => !/^kind: Lesson/m.test(d)).join("---");
async function plain(page) {
  const before = (await probe(page)).loads;
  await page.evaluate((t) => window.__schedplaySetText(t), plainText);
  await page.waitForFunction((b) => window.__schedplay.loads > b && !window.__schedplay.editPending && window.__schedplay.simDone, before, { polling: 50, timeout: 30000 });
  assert.equal((await probe(page)).lastReply.lesson ?? null, null, "no lesson");
  await settled(page);
}

describe("accessibility", () => {
  let browser, context, page;

  before(async () => {
    browser = await launch();
    // axe-core is injected as a script tag, which the pages' CSP would refuse.
    context = await browser.newContext({ viewport: { width: 1280, height: 720 }, bypassCSP: true });
    page = await open(context);
    // Captions re-render as the first run plays; a focused glossary link in
    // one would vanish under the Tab walk.
    await ended(page);
  });
  after(async () => {
    await browser?.close();
  });

  test("Tab moves into and out of the canvas, and reaches every control", async () => {
    await page.click(".cm-content");
    const seen = await tabTo(page, "canvas");
    assert.ok(!seen.includes("editor>div") || seen.indexOf("canvas") > 0, "Tab left the editor");
    // The trap was here: Tab and Shift+Tab left the focus on the canvas.
    await page.keyboard.press("Tab");
    const after = await active(page);
    assert.notEqual(after, "canvas", "Tab leaves the canvas");
    await page.keyboard.press("Shift+Tab");
    assert.equal(await active(page), "canvas", "Shift+Tab comes back into the canvas");
    await page.keyboard.press("Shift+Tab");
    assert.notEqual(await active(page), "canvas", "Shift+Tab leaves the canvas backwards");

    // Every control, in one lap from the canvas.
    await tabTo(page, "canvas");
    const lap = await tabTo(page, "theme", { n: 200 });
    for (const id of ["tl-start", "tl-back", "tl-play", "tl-fwd", "tl-preempt", "tl-scrub", "tl-speed", "tl-log", "tl-text"]) {
      assert.ok(lap.includes(id), `Tab reaches #${id} (lap: ${lap.join(", ")})`);
    }
    // The event log is one stop however many rows it has (eventlog.test.mjs).
    assert.equal(lap.filter((a) => a.startsWith("log-list")).length, 1, `Tab reaches the event log once (lap: ${lap.join(", ")})`);
  });

  test("arrow keys move a focus over nodes and pods, Enter opens details, Esc goes back", async () => {
    await plain(page);
    await page.click("#tl-log");
    await page.click("#tl-log"); // the focus is on the page, outside the editor
    await tabTo(page, "canvas", { back: true });
    await key(page, "ArrowDown"); // the first node card
    await page.waitForFunction(() => /^Node /.test(document.getElementById("canvas-live").textContent), null, { timeout: 5000 });
    const node = (await page.textContent("#canvas-live")).match(/^Node (\S+?),? /)[1];
    await key(page, "ArrowRight"); // its first pod (or the next card)
    await page.waitForFunction((n) => !document.getElementById("canvas-live").textContent.startsWith(`Node ${n}`), node, { timeout: 5000 });
    const live = await page.textContent("#canvas-live");
    assert.match(live, /^(Pod \S+ on \S+, \w+, priority -?\d+|Node \S+)/, "the focus is announced from the outline");
    await page.locator("#stage").screenshot({ path: join(shotDir, "keyboard-focus.png") });
    await key(page, "ArrowLeft");
    await page.waitForFunction((n) => document.getElementById("canvas-live").textContent.startsWith(`Node ${n}`), node, { timeout: 5000 });
    await key(page, "Enter");
    await page.waitForSelector("#details:not([hidden])", { timeout: 5000 });
    assert.match(await page.textContent("#details-body h2"), new RegExp(node));
    assert.equal(await active(page), "canvas", "the focus stays on the canvas");
    await key(page, "Escape");
    await page.waitForSelector("#details[hidden]", { state: "attached", timeout: 5000 });
  });

  test("the text view lists the cluster at the playhead and searches it", async () => {
    await page.keyboard.press("End");
    await page.click("#tl-text");
    await page.waitForSelector("#textview:not([hidden]) tbody tr");
    const title = await page.textContent("#textview-title");
    const p = await probe(page);
    assert.match(title, /^Cluster at t=/);
    const rows = await page.$$eval("#textview tbody tr", (trs) => trs.map((tr) => ({ cls: tr.className, cells: [...tr.cells].map((c) => c.textContent) })));
    const nodes = rows.filter((r) => r.cls === "node");
    const pods = rows.filter((r) => r.cls.startsWith("pod"));
    assert.ok(nodes.length >= 1 && pods.length >= 1, `rows: ${nodes.length} nodes, ${pods.length} pods`);
    assert.equal(p.lastReply.summary.nodes, nodes.length, "one row per node");
    // Headers are what a screen reader reads each cell with.
    assert.deepEqual(await page.$$eval("#textview thead th", (ths) => ths.map((t) => t.getAttribute("scope"))), Array(6).fill("col"));
    const name = pods[0].cells[2];
    await page.fill("#textview input[type=search]", name);
    const shown = await page.$$eval("#textview tbody tr:not([hidden])", (trs) => trs.map((tr) => tr.cells[2].textContent));
    assert.ok(shown.includes(name) && shown.length < rows.length, `search ${name}: ${shown.length} of ${rows.length} rows`);
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(shotDir, `textview-${theme}-1280x720.png`) });
    }
    await page.fill("#textview input[type=search]", "");
    // Seeking back to the start changes the time it reads.
    await page.click("#tl-start");
    await page.waitForFunction(() => document.getElementById("textview-title").textContent === "Cluster at t=0s", null, { timeout: 5000 });
    await page.click("#tl-text");
  });

  test("the scrubber takes the pane's width, marks the events and says the time", async () => {
    const pane = await page.locator("#stage-pane").boundingBox();
    const scrub = await page.locator("#tl-scrub").boundingBox();
    assert.ok(scrub.width >= 0.8 * pane.width, `scrubber ${scrub.width} px of ${pane.width}`);
    const ticks = await page.$$eval("#tl-ticks option", (os) => os.map((o) => Number(o.value)));
    const p = await probe(page);
    assert.ok(ticks.length >= 2 && ticks.length <= p.events + 1 && ticks.includes(0) && ticks.includes(1000), `ticks ${ticks}`);
    await page.click("#tl-start");
    await page.click("#tl-fwd");
    assert.match(await page.getAttribute("#tl-scrub", "aria-valuetext"), /^t=\d/);
  });

  test("axe-core: no serious or critical violation on the playground, the gallery and an embed", async () => {
    const found = {};
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await page.waitForTimeout(300);
      found[`playground (${theme})`] = await axe(page);
    }
    found.stage = await axe(page, page.frame({ url: /stage\.html/ }));
    // A course lesson, its question on screen beside the editor.
    const lesson = await context.newPage();
    await lesson.goto(url + "index.html?lesson=preemption-basic");
    await lesson.getByRole("region", { name: "Question" }).waitFor({ timeout: 90000 });
    for (const theme of ["light", "dark"]) {
      await lesson.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await lesson.waitForTimeout(300);
      found[`lesson (${theme})`] = await axe(lesson);
    }
    const gallery = await context.newPage();
    await gallery.goto(url + "gallery.html");
    await gallery.waitForLoadState("networkidle");
    found.gallery = await axe(gallery);
    const embed = await context.newPage();
    await embed.goto(url + "embed.html?example=preemption-basic&load=eager");
    await embed.waitForFunction(() => window.__schedplayEmbed?.drawnGen >= 1, null, { timeout: 90000, polling: 100 });
    found.embed = await axe(embed);
    const bad = Object.entries(found).filter(([, v]) => v.length > 0).map(([where, v]) => `${where}:\n  ${v.join("\n  ")}`);
    assert.deepEqual(bad, [], bad.join("\n"));
  });
});

// rowColours reads one event log row's words against what is under them:
// its time, its kind label and its line, each colour and the row's
// background composited over the page's (a 1-pixel canvas does the
// compositing, so color-mix() and alpha tints count as the browser draws
// them), with the state the row is in. Kinds the style sheets colour but
// the scenario lacks (SIGKILL, say) are read as a label put in the row for
// the moment.
const rowColours = (page, seq) => page.evaluate((n) => {
  const li = document.querySelector(`#log-list li.row[data-seq="${n}"]`);
  const g = Object.assign(document.createElement("canvas"), { width: 1, height: 1 }).getContext("2d", { willReadFrequently: true });
  const paint = (css) => {
    // An unparsed colour would leave the old fill in place without a word.
    g.fillStyle = "#010203";
    g.fillStyle = css;
    if (g.fillStyle === "#010203" && !/^(#010203|rgb\(1, 2, 3\))$/.test(css)) throw new Error(`canvas cannot parse ${css}`);
    g.fillRect(0, 0, 1, 1);
    return [...g.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  };
  const lum = (rgb) => {
    const [r, gr, b] = rgb.map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * gr + 0.0722 * b;
  };
  const hex = (rgb) => "#" + rgb.map((v) => v.toString(16).padStart(2, "0")).join("");
  const read = (e) => {
    const layers = [];
    for (let a = e; a; a = a.parentElement) layers.unshift(getComputedStyle(a).backgroundColor);
    let bg = paint("#ffffff");
    for (const l of layers) bg = paint(l);
    const fg = paint(getComputedStyle(e).color);
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return { fg: hex(fg), bg: hex(bg), ratio: (hi + 0.05) / (lo + 0.05) };
  };
  const label = li.querySelector("[class^='kind-']");
  const out = { time: read(li.querySelector(".jump > span")), [`${label.textContent} label`]: read(label), line: read(li.querySelector(".line")) };
  const styled = new Set();
  const walk = (rules) => {
    for (const r of rules) {
      for (const m of (r.selectorText ?? "").matchAll(/\.kind-(\w+)/g)) styled.add(m[1]);
      if (r.cssRules) walk(r.cssRules);
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  for (const k of styled) {
    const as = document.createElement("span");
    as.className = `kind-${k}`;
    as.textContent = k;
    label.after(as);
    out[`${k} label`] = read(as);
    as.remove();
  }
  return {
    kind: label.textContent,
    state: { current: li.classList.contains("current"), hover: li.matches(":hover"), focus: li.matches(":focus-within") },
    out,
  };
}, seq);

describe("the event log's colours", () => {
  let browser, page;
  before(async () => {
    browser = await launch();
    page = await open(await browser.newContext({ viewport: { width: 1280, height: 720 } }));
    await ended(page);
  });
  after(async () => {
    await browser?.close();
  });

  // axe on the whole page checks only the rows as they happen to be (which
  // one is the shown event, where the mouse is): the red of a Preempted
  // label was 3.93:1 on the shown row's tint in the dark theme, and axe
  // saw it only when such a row was the shown one.
  test("every kind label is 4.5:1 on its row, shown, hovered or focused, in both themes", async () => {
    assert.equal(await page.isHidden("#log"), false, "the event log is shown");
    // One row of each kind; the default scenario played to its end has
    // them all, the preemption's red ones among them.
    const rows = await page.$$eval("#log-list li.row", (lis) => lis.map((li) => ({ seq: Number(li.dataset.seq), kind: li.querySelector("[class^='kind-']").textContent })));
    const first = new Map();
    for (const r of rows) if (!first.has(r.kind)) first.set(r.kind, r.seq);
    for (const k of ["Scheduled", "Nominated", "Preempted"]) assert.ok(first.has(k), `a ${k} row (kinds: ${[...first.keys()].join(", ")})`);
    const row = (seq) => page.locator(`#log-list li.row[data-seq="${seq}"]`);
    const away = async () => {
      await page.mouse.move(1, 1);
      await page.evaluate(() => document.activeElement?.blur());
    };
    const bad = new Set();
    const background = (seq) => row(seq).evaluate((li) => getComputedStyle(li).backgroundColor);
    let checked = 0;
    const check = async (seq, want) => {
      const got = await rowColours(page, seq);
      assert.deepEqual(got.state, want, `row ${seq} (${got.kind}) is in the state under test`);
      const state = Object.entries(want).filter(([, on]) => on).map(([s]) => s).join("+") || "plain";
      for (const [part, c] of Object.entries(got.out)) {
        checked++;
        const what = part.endsWith(" label") ? part : `${got.kind} row's ${part}`;
        if (c.ratio < 4.5) bad.add(`${what} on a ${state} row: ${c.fg} on ${c.bg} is ${c.ratio.toFixed(2)}:1`);
      }
    };
    // show clicks a row's button and waits for its event to be the shown one.
    const show = async (seq) => {
      await row(seq).locator(".jump").click();
      await page.waitForFunction((n) => document.querySelector(`#log-list li.row[data-seq="${n}"]`)?.classList.contains("current"), seq, { timeout: 5000 });
    };
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await page.waitForTimeout(300);
      for (const seq of first.values()) {
        // Another row shown, the mouse and the focus elsewhere.
        await show(seq === rows[0].seq ? rows[1].seq : rows[0].seq);
        await away();
        await check(seq, { current: false, hover: false, focus: false });
        await row(seq).hover();
        await check(seq, { current: false, hover: true, focus: false });
        const hovered = await background(seq);
        await row(seq).locator(".jump").focus();
        await check(seq, { current: false, hover: true, focus: true });
        await page.mouse.move(1, 1);
        await check(seq, { current: false, hover: false, focus: true });
        // This row shown: clicked (mouse on it, focus in it), then each let go.
        await show(seq);
        await check(seq, { current: true, hover: true, focus: true });
        await page.mouse.move(1, 1);
        await check(seq, { current: true, hover: false, focus: true });
        await away();
        await check(seq, { current: true, hover: false, focus: false });
        await row(seq).hover();
        await check(seq, { current: true, hover: true, focus: false });
        // The shown row keeps its tint under the mouse (the hover's grey
        // took its place, and with it the reader's place in the log).
        const shown = await background(seq);
        if (shown === hovered) bad.add(`a shown ${theme} row under the mouse looks like any hovered row (${shown})`);
      }
    }
    console.log(`# ${checked} colour pairs, rows of ${first.size} kinds: ${[...first.keys()].join(", ")}`);
    assert.deepEqual([...bad], [], [...bad].join("\n"));
  });
});

describe("reduced motion", () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  // paintsOver counts the canvas's repaints while stepping through the
  // first events one by one: a glide repaints every tick of MoveTicks, a
  // cut once or twice.
  async function paintsOver(page) {
    await page.click("#tl-start");
    await page.waitForTimeout(600);
    const before = (await bridgeStats(page)).paints;
    for (let i = 0; i < 4; i++) {
      await page.click("#tl-fwd");
      await page.waitForTimeout(700);
    }
    return (await bridgeStats(page)).paints - before;
  }
  const bridgeStats = async (page) => JSON.parse(await page.frame({ url: /stage\.html/ }).evaluate(() => window.schedplay.stats()));

  test("prefers-reduced-motion cuts; the toggle turns glides back on", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, reducedMotion: "reduce" });
    const page = await open(context);
    await plain(page);
    if ((await page.getAttribute("#tl-play", "aria-label")) === "Pause") await page.click("#tl-play");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.motion), "reduce");
    assert.equal(await page.getAttribute("#motion", "aria-pressed"), "true");
    const cut = await paintsOver(page);
    await page.click("#motion");
    assert.equal(await page.getAttribute("#motion", "aria-pressed"), "false");
    const glide = await paintsOver(page);
    console.log(`# repaints over 4 steps: ${cut} reduced, ${glide} full motion`);
    assert.ok(cut <= 12, `reduced motion repainted ${cut} times over 4 steps`);
    assert.ok(glide >= 3 * Math.max(cut, 4), `full motion repainted ${glide} times, reduced ${cut}`);
    await context.close();
  });
});

// locate is where the canvas draws a pod or node, in CSS pixels of the page.
async function locate(page, kind, key) {
  const r = JSON.parse(await page.frame({ url: /stage\.html/ }).evaluate(([k, n]) => window.schedplay.locate(k, n), [kind, key]));
  assert.ok(r.ok, `${kind} ${key} is not on the canvas`);
  const box = await page.locator("#stage").boundingBox();
  return { x: box.x + r.x, y: box.y + r.y, w: r.w, h: r.h };
}

describe("zoom, phones", () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test("one wheel notch zooms about 1.2x around the pointer", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await open(context);
    // node-a's card must not change size between the two measures.
    await ended(page);
    for (const theme of ["dark", "light"]) {
      await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(shotDir, `projector-1280x720-${theme}.png`) });
    }
    const a = await locate(page, "node", "node-a");
    const px = a.x + a.w * 0.25, py = a.y + a.h * 0.25;
    await page.mouse.move(px, py);
    await page.waitForTimeout(100);
    await page.mouse.wheel(0, -100); // one notch towards the screen: zoom in
    await page.waitForTimeout(400);
    const b = await locate(page, "node", "node-a");
    const step = b.w / a.w;
    console.log(`# one notch: ${step.toFixed(3)}x`);
    assert.ok(step >= 1.1 && step <= 1.25, `one notch zoomed ${step}x`);
    // The point under the pointer stays under it: the same quarter of the card.
    assert.ok(Math.abs((px - b.x) / b.w - 0.25) < 0.03 && Math.abs((py - b.y) / b.h - 0.25) < 0.03, `pointer at ${(px - b.x) / b.w}, ${(py - b.y) / b.h} of the card`);
    await page.mouse.wheel(0, 100);
    await page.waitForTimeout(400);
    const c = await locate(page, "node", "node-a");
    assert.ok(Math.abs(c.w / a.w - 1) < 0.02, `a notch back returns to ${c.w / a.w}x`);
    await context.close();
  });

  test("390x844 with touch: one column, no overflow, a tap opens details, 44 px controls", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
    const page = await open(context);
    await plain(page);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide`);
    const stage = await page.locator("#stage").boundingBox();
    const editor = await page.locator("#editor-pane").boundingBox();
    assert.ok(stage.width >= 380 && (editor === null || editor.y > stage.y), `canvas first and full width: ${JSON.stringify(stage)}, editor ${JSON.stringify(editor)}`);
    const small = () => page.$$eval(".bar button, .bar select, .bar .actions > a, .timeline button, .timeline select", (els) => els
      .filter((e) => e.offsetParent !== null)
      .map((e) => ({ id: e.id, h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width }))
      .filter((b) => b.h < 43.5 || b.w < 43.5));
    assert.deepEqual(await small(), [], "controls under 44 px");
    // The header folds behind Menu (a disclosure): Lessons and Editor stay.
    const menu = page.getByRole("button", { name: "Menu", exact: true });
    const copy = page.getByRole("button", { name: "Copy link" });
    assert.equal(await menu.getAttribute("aria-expanded"), "false");
    assert.ok(await page.getByRole("link", { name: "Lessons" }).isVisible() && await page.getByRole("button", { name: "Editor" }).isVisible());
    assert.equal(await copy.isVisible(), false, "Copy link folded under Menu");
    const header = (await page.locator("header").boundingBox()).height;
    console.log(`# phone header: ${header.toFixed(0)} px folded`);
    assert.ok(header <= 160, `the folded header is ${header} px high`);
    await menu.click();
    assert.equal(await menu.getAttribute("aria-expanded"), "true");
    assert.ok(await copy.isVisible() && await page.getByRole("combobox", { name: /language/i }).isVisible(), "Menu shows the other buttons");
    assert.deepEqual(await small(), [], "controls under 44 px with the menu open");
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.closest("#actions") !== null && document.activeElement.id !== "menu"), true, "Tab from Menu goes to what it shows");
    await page.keyboard.press("Escape");
    assert.equal(await menu.getAttribute("aria-expanded"), "false", "Escape folds the menu");
    assert.equal(await page.evaluate(() => document.activeElement.id), "menu", "Escape gives the focus back to Menu");
    assert.equal(await copy.isVisible(), false);
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(shotDir, `phone-390x844-${theme}.png`) });
    }
    // A tap (held across a few of ebiten's ticks, as a finger is).
    const n = await locate(page, "node", "node-c");
    const cdp = await context.newCDPSession(page);
    const at = [{ x: n.x + n.w / 2, y: n.y + 8 }];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: at });
    await page.waitForTimeout(120);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForSelector("#details:not([hidden])", { timeout: 5000 });
    assert.match(await page.textContent("#details-body h2"), /node-c/);
    await page.locator("#details").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shotDir, "phone-390x844-details.png"), fullPage: true });
    // Two fingers spreading zoom in.
    const before = await locate(page, "node", "node-a");
    const cx = before.x + before.w / 2, cy = before.y + before.h / 2;
    const fingers = (d) => [{ x: cx - d, y: cy, id: 1 }, { x: cx + d, y: cy, id: 2 }];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers(20) });
    for (const d of [30, 40, 50, 60]) {
      await page.waitForTimeout(60);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers(d) });
    }
    await page.waitForTimeout(60);
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(300);
    const after = await locate(page, "node", "node-a");
    console.log(`# pinch 40 px -> 120 px: ${(after.w / before.w).toFixed(2)}x`);
    assert.ok(after.w / before.w > 1.5, `a pinch zoomed ${after.w / before.w}x`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, "no overflow with details open");

    // The text view: a table that keeps its columns readable (no word
    // broken over lines: "Zone" was one letter a line) and scrolls
    // sideways in a focusable region of its own; a table to screen readers.
    await page.click("#details-close");
    await page.click("#tl-text");
    await page.waitForSelector("#textview:not([hidden]) tbody tr");
    const broken = await page.$$eval("#textview th, #textview td", (cells) => cells.filter((c) => c.offsetParent !== null).flatMap((c) => {
      const out = [];
      const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const words = n.textContent.trim().split(/\s+/).filter(Boolean).length;
        const r = document.createRange();
        r.selectNodeContents(n);
        const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
        if (words > 0 && lines > words) out.push(`${c.tagName} "${n.textContent.trim()}": ${lines} lines, ${c.getBoundingClientRect().width.toFixed(0)} px wide`);
      }
      return out;
    }));
    assert.deepEqual(broken, [], "text view cells that break a word over lines at 390 px");
    const region = page.getByRole("region", { name: "Cluster table" });
    assert.equal(await region.getAttribute("tabindex"), "0", "the table's scroll region takes the focus");
    assert.equal(await region.getByRole("table").count(), 1);
    assert.deepEqual(await region.getByRole("columnheader").allTextContents(), ["Zone", "Node", "Pod", "Phase", "Priority", "Details"]);
    const box = await region.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the region stays in the viewport: ${JSON.stringify(box)}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, "no page overflow with the text view open");
    await region.focus();
    await page.keyboard.press("ArrowRight");
    for (const theme of ["light", "dark"]) {
      await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
      await page.waitForTimeout(300);
      await page.locator("#textview").screenshot({ path: join(shotDir, `textview-390x844-${theme}.png`) });
    }
    await context.close();
  });
});
