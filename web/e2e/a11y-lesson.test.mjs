// Accessibility of a lesson: on a 1280x720 projector the canvas keeps most
// of the height with the lesson's question on screen; the event log's
// glossary terms are links beside the row's button, reachable by keyboard
// (→ from the button);
// a focused term in a caption survives playback, or its focus goes to the
// caption; in presenter mode a key press does one thing; and a click on the
// canvas opens details while a question waits, answering only through the
// question's own button (graded by the engine).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { bridge, ended, firstFrame, key, launch, open, probe, settled, url } from "./helpers.mjs";

const shotDir = process.env.SCHEDPLAY_SHOTS ?? join(import.meta.dirname, "screenshots", "a11y");
mkdirSync(shotDir, { recursive: true });

const ready = firstFrame;

async function lesson(context, name) {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(new URL(`index.html?lesson=${name}`, url).toString());
  await ready(page);
  return page;
}

// focusName is the accessible name of what has the focus in the page
// ("canvas" for ebiten's canvas in the stage frame, "body" for nothing).
async function focusName(page) {
  const here = await page.evaluate(() => {
    const a = document.activeElement;
    if (!a || a === document.body) return "body";
    if (a.id === "stage") return "stage";
    return a.getAttribute("aria-label") || a.textContent.trim();
  });
  if (here !== "stage") return here;
  const inFrame = await page.frame({ url: /stage\.html/ }).evaluate(() => document.activeElement?.tagName.toLowerCase());
  return inFrame === "canvas" ? "canvas" : "stage";
}

async function setTheme(page, theme) {
  await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
  await page.waitForTimeout(400);
}

// locate is where the canvas draws a pod or node, in CSS pixels of the page.
async function locate(page, kind, name) {
  const r = await bridge(page, "locate", kind, name);
  assert.ok(r.ok, `${kind} ${name} is not on the canvas`);
  const box = await page.locator("#stage").boundingBox();
  return { x: box.x + r.x, y: box.y + r.y, w: r.w, h: r.h };
}

describe("a lesson's accessibility", () => {
  let browser, context;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  });
  after(async () => {
    await browser?.close();
  });

  test("1280x720 with a question on screen: the canvas keeps 60 % of the height, nothing overflows, 16 px text", async () => {
    const page = await lesson(context, "preemption-basic");
    const question = page.getByRole("region", { name: "Question" });
    await question.waitFor({ timeout: 60000 });
    await page.waitForTimeout(800);
    const stage = await page.locator("#stage").boundingBox();
    console.log(`# canvas ${Math.round(stage.width)}x${Math.round(stage.height)} at 1280x720`);
    assert.ok(stage.height >= 0.6 * 720, `the canvas is ${stage.height} px tall`);
    const doc = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]);
    assert.deepEqual(doc, [1280, 720], "the page does not scroll");
    // The question and its options are in view, beside the canvas, not over it.
    const panel = await page.getByRole("region", { name: "Lesson" }).boundingBox();
    const options = page.getByRole("group", { name: "Which node will critical be nominated to?" }).getByRole("button");
    assert.ok(await options.count() >= 2);
    for (const b of [await question.boundingBox(), await options.last().boundingBox()]) {
      assert.ok(b.y >= panel.y - 0.5 && b.y + b.height <= panel.y + panel.height + 0.5 && b.y + b.height <= 720, `in view: ${JSON.stringify(b)} in ${JSON.stringify(panel)}`);
      assert.ok(b.x + b.width <= stage.x || b.x >= stage.x + stage.width || b.y >= stage.y + stage.height, "not over the canvas");
    }
    const px = async (loc) => loc.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    for (const [what, loc] of [
      ["caption", page.getByRole("status", { name: "Caption" })],
      ["question", question.locator("strong")],
      ["hint", question.locator("p").first()],
      ["option", options.first()],
      ["lesson summary", page.locator("#lesson-summary")],
    ]) {
      const size = await px(loc);
      assert.ok(size >= 16, `${what}: ${size} px`);
    }
    for (const theme of ["light", "dark"]) {
      await setTheme(page, theme);
      await page.screenshot({ path: join(shotDir, `lesson-question-1280x720-${theme}.png`) });
    }
    await setTheme(page, "light");
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("an event log row: its button and its glossary links are siblings, the links reached by → from the button", async () => {
    const page = await open(context);
    await ended(page);
    assert.equal(await page.locator("button a, button [data-term], a button").count(), 0, "no link inside a button");
    const log = page.getByRole("region", { name: "Event log" });
    const row = log.getByRole("listitem").filter({ has: page.getByRole("link") }).first();
    const jump = row.getByRole("button");
    const link = row.getByRole("link").first();
    const term = await link.textContent();
    const seq = Number(await row.getAttribute("data-seq"));
    // The button's name is the whole line: a screen reader hears the event.
    assert.match(await jump.getAttribute("aria-label"), new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    await page.click("#tl-start");
    await jump.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction((s) => window.__schedplay.cursor === s, seq, { timeout: 5000 });
    await page.keyboard.press("ArrowRight");
    assert.equal(await focusName(page), term, "→ goes from the row's button to its term");
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Glossary" });
    await dialog.waitFor();
    const entry = await page.evaluate(() => document.activeElement?.textContent);
    assert.ok(entry.length > 0, "the entry has the focus");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await focusName(page), term, "Esc returns to the term");
    await page.close();
  });

  test("a focused glossary link in a caption survives playback; new words move the focus to the caption", async () => {
    const page = await open(context);
    await ended(page);
    // The Nominated event's caption names the victim; the next event
    // (Preempted) keeps that caption.
    const log = page.getByRole("region", { name: "Event log" });
    const nominated = log.getByRole("button", { name: /Nominated/ }).first();
    await nominated.click();
    const seq = (await probe(page)).cursor;
    const caption = page.getByRole("status", { name: "Caption" });
    const link = caption.getByRole("link").first();
    await link.waitFor({ timeout: 5000 });
    const words = await caption.textContent();
    const term = await link.textContent();
    await link.focus();
    await page.evaluate(() => { document.activeElement.dataset.mark = "focused"; });
    await page.keyboard.press("."); // one event on, played from the link
    await page.waitForFunction((s) => window.__schedplay.cursor === s + 1, seq, { timeout: 5000 });
    await settled(page);
    assert.equal(await caption.textContent(), words, "the same caption");
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.mark), "focused", "the same link keeps the focus");
    assert.equal(await focusName(page), term);
    // Home shows the first caption, other words: the focus goes to the caption.
    await page.keyboard.press("Home");
    await page.waitForFunction(() => window.__schedplay.cursor === -1);
    await page.waitForTimeout(300);
    assert.notEqual(await caption.textContent(), words);
    assert.notEqual(await focusName(page), "body", "the focus did not fall to the page");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "lesson-caption");
    // Playback from there: the focus stays in the caption region.
    await page.keyboard.press(" ");
    await ended(page);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "lesson-caption");
    await page.close();
  });

  test("presenter mode: Page Down steps; arrows step unless the canvas has the focus, where they only move its ring", async () => {
    const page = await open(context);
    await ended(page);
    await page.click("#tl-start");
    await page.getByRole("button", { name: "Present" }).click();
    await page.waitForFunction(() => window.__schedplayPresenter.on);
    const cursor = async () => (await probe(page)).cursor;
    await page.keyboard.press("PageDown");
    assert.equal(await cursor(), 0, "Page Down: one event");
    await page.keyboard.press("ArrowRight");
    assert.equal(await cursor(), 1, "→ outside the canvas: one event");
    await page.keyboard.press("PageUp");
    assert.equal(await cursor(), 0, "Page Up: back one event");
    // Into the canvas: → moves the focus ring there and not the lesson.
    for (let i = 0; i < 30 && await focusName(page) !== "canvas"; i++) await page.keyboard.press("Tab");
    assert.equal(await focusName(page), "canvas");
    const live = () => page.textContent("#canvas-live");
    await key(page, "ArrowRight");
    await page.waitForFunction(() => /^(Pod|Node) /.test(document.getElementById("canvas-live").textContent), null, { timeout: 5000 });
    const ring = await live();
    assert.equal(await cursor(), 0, "→ on the canvas does not step");
    await key(page, "ArrowRight");
    await page.waitForFunction((r) => document.getElementById("canvas-live").textContent !== r, ring, { timeout: 5000 });
    const ring2 = await live();
    assert.equal(await cursor(), 0, "→ on the canvas does not step");
    await key(page, "PageDown");
    assert.equal(await cursor(), 1, "Page Down on the canvas steps");
    await page.waitForTimeout(300);
    assert.equal(await live(), ring2, "Page Down does not move the canvas's ring");
    // The help says so.
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    assert.match(await help.textContent(), /Presenter mode.*Page Down.*Page Up.*except when the canvas has the focus/s);
    await page.keyboard.press("Escape");
    await page.close();
  });

  test("with a question on screen a canvas click opens details; answering is the question's button (keyboard too)", async () => {
    const page = await lesson(context, "preemption-basic");
    await page.getByRole("region", { name: "Question" }).waitFor({ timeout: 60000 });
    await settled(page);
    // The engine's answer, from the bridge: the test knows no constant.
    const right = (await bridge(page, "answer", "where", "")).answer.nodes[0];
    const wrong = ["node-a", "node-b", "node-c"].find((n) => n !== right);
    const n = await locate(page, "node", wrong);
    // A click held across a few of ebiten's ticks.
    await page.mouse.move(n.x + n.w / 2, n.y + 10);
    await page.mouse.down();
    await page.waitForTimeout(80);
    await page.mouse.up();
    const details = page.getByRole("complementary", { name: "Selection details" });
    await details.waitFor({ timeout: 5000 });
    assert.match(await details.getByRole("heading", { level: 2 }).textContent(), new RegExp(wrong));
    const quiz = await page.evaluate(() => ({ ...window.__schedplayQuiz }));
    assert.deepEqual([quiz.right, quiz.wrong, quiz.shown], [0, 0, "where"], "the click answered nothing");
    await page.getByRole("button", { name: `Answer with ${wrong}` }).waitFor();
    // By keyboard: Esc twice (details, then the canvas's ring), arrows to
    // the right node, Enter, then Shift+Tab back to the question's button.
    await key(page, "Escape");
    await key(page, "Escape");
    for (let i = 0; i < 10 && !(await page.textContent("#canvas-live")).startsWith(`Node ${right}`); i++) await key(page, "ArrowDown");
    assert.match(await page.textContent("#canvas-live"), new RegExp(`^Node ${right}`));
    await key(page, "Enter");
    await page.waitForFunction((r) => document.querySelector("#details-body h2")?.textContent.includes(r), right, { timeout: 5000 });
    const answer = `Answer with ${right}`;
    for (let i = 0; i < 8 && await focusName(page) !== answer; i++) await page.keyboard.press("Shift+Tab");
    assert.equal(await focusName(page), answer, "Shift+Tab from the canvas reaches the question's button");
    await page.keyboard.press("Enter");
    await page.locator(".quiz-right").waitFor({ timeout: 5000 });
    const after = await page.evaluate(() => ({ ...window.__schedplayQuiz }));
    assert.deepEqual([after.right, after.wrong], [1, 0], "graded by the engine once");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
