// The course: from the playground to the course index, a lesson's question
// answered wrongly then rightly (the right answer taken from the engine's
// run through the bridge), the next lesson, progress kept over a reload,
// a lesson link from before the lesson changed (or cut short), a lesson
// the course does not have (or whose file does not load),
// presenter mode's label size, and the page in each language.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFile } from "node:fs/promises";
import { appendText, axe, bridge, editorText, firstFrame, idbDraft, launch, url, watch } from "./helpers.mjs";

const out = process.env.COURSE_SHOTS ?? join(process.cwd(), "e2e", "screenshots");
const ready = firstFrame;

test("course: index, question, next lesson, progress kept", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(url);
    await ready(page);
    await page.getByRole("link", { name: "Lessons" }).click();
    await page.waitForSelector(".toc-line");
    assert.equal(await page.locator(".toc-line").count(), 12, "a line per chapter");
    // The ordered list numbers each line once: no number in the text too.
    assert.equal(await page.locator(".toc").evaluate((e) => getComputedStyle(e).listStyleType), "decimal");
    assert.doesNotMatch(await page.locator(".toc-line a").first().textContent(), /^\d/);
    await page.screenshot({ path: join(out, "course-index-en.png") });
    await page.locator("#gallery section .card").first().click();
    await page.waitForURL(/lesson=priority-queue-order/);
    await ready(page);
    assert.equal(await page.locator("#share-banner:visible").count(), 0, "no shared-scenario banner");
    await page.waitForSelector("#quiz:not([hidden])", { timeout: 30000 });
    await page.screenshot({ path: join(out, "question-before.png") });
    // The engine's answer, from the bridge: the test knows no constant.
    const engine = await bridge(page, "answer", "first", "");
    const right = engine.answer.pods[0];
    const options = await page.locator(".quiz-option").evaluateAll((bs) => bs.map((b) => b.dataset.value));
    const wrong = options.find((o) => o !== right);
    await page.locator(`.quiz-option[data-value="${wrong}"]`).click();
    await page.waitForSelector(".quiz-wrong");
    await page.locator(`.quiz-option[data-value="${right}"]`).click();
    await page.waitForSelector(".quiz-right");
    assert.match(await page.locator(".quiz-why").textContent(), /bound to/);
    await page.screenshot({ path: join(out, "question-after.png") });
    await page.getByRole("link", { name: "Next →" }).click();
    await page.waitForURL(/lesson=priority-global-default/);
    await ready(page);
    await page.reload();
    await ready(page);
    assert.equal(await page.locator("#course-progress").textContent(), "1 lesson done");
    await page.goto(new URL("gallery.html", url).toString());
    await page.waitForSelector(".lesson-item.done");
    assert.equal(await page.locator(".lesson-item.done").count(), 1);
    await context.close();
  } finally {
    await browser.close();
  }
});

// A lesson opened from the course leaves the draft alone; once the learner
// edits it, the edit is their draft (a reload shows it) and the draft it
// replaced is kept aside.
test("an edited lesson becomes the learner's draft", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const draft = async () => (await idbDraft(page, "schedplay.draft")) ?? "";
    const waitDraft = async (re) => {
      for (let i = 0; i < 100 && !re.test(await draft()); i++) await page.waitForTimeout(100);
      assert.match(await draft(), re);
    };
    await page.goto(url);
    await ready(page);
    await appendText(page, "\n# my own draft\n");
    await waitDraft(/# my own draft/);
    await page.goto(new URL("index.html?lesson=preemption-basic", url).toString());
    await ready(page);
    assert.doesNotMatch(await editorText(page), /# my own draft/, "the lesson is shown");
    assert.match(await draft(), /# my own draft/, "opening the lesson keeps the draft");
    await appendText(page, "\n# my note on the lesson\n");
    await waitDraft(/# my note on the lesson/);
    assert.doesNotMatch(page.url(), /lesson=/, "the address forgets the lesson");
    await page.getByText("Your edit is now your draft.").waitFor();
    const kept = JSON.parse((await idbDraft(page, "schedplay.draft.previous")) ?? "{}").text ?? "";
    assert.match(kept, /# my own draft/, "the replaced draft is kept aside");
    await page.reload();
    await ready(page);
    const text = await editorText(page);
    assert.match(text, /# my note on the lesson/, "a reload shows the edit");
    assert.match(text, /kind: Lesson/, "of the lesson");
    await context.close();
  } finally {
    await browser.close();
  }
});

// A link copied in a lesson not yet edited names the lesson and carries
// the moment in its fragment: it reopens the lesson at that moment (event,
// time, selected pod, caption, the course bar). The course holds the run at
// each open question, so the sender answers as a learner does; the
// recipient's questions the moment has passed close unasked, the one it
// stops at is open as it was on the sender's screen. With &lang= the same
// moment in that language. A fragment whose text is not the lesson's is
// opened as the link it is.
test("a link copied in a lesson reopens the lesson at its moment", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
    const page = await watched(context);
    await page.goto(new URL("index.html?lesson=preemption-basic", url).toString());
    await ready(page);
    await passQuestion(page, "where");
    await passQuestion(page, "victims");
    await questionOpen(page, "gone");
    await page.$eval("#tl-text", (b) => b.click());
    await page.locator("#textview").getByRole("button", { name: "default/critical", exact: true }).click();
    await page.waitForFunction(() => document.querySelector("#details-body h2")?.textContent === "critical");
    const held = await moment(page);
    assert.equal(held.quiz, "gone", "the sender's question is open");
    const link = await copyLink(page);
    assert.match(link, /\?lesson=preemption-basic#v1\./, "the link names the lesson");

    const other = await watched(context);
    await other.goto(link);
    await reached(other, held);
    assert.deepEqual(await moment(other), held, "the recipient sees the sender's moment, its question open");
    assert.equal(await other.evaluate(() => window.__schedplayQuiz.passed), 2, "the two questions before it closed");
    assert.equal(await other.getByText("There is no lesson named").count(), 0);
    assert.match(other.url(), /lesson=preemption-basic/, "the address keeps the lesson");

    // Past every question: the run whole, a step before its end.
    await page.locator(".quiz-option[data-value='30s']").click();
    await page.locator(".quiz-continue").click();
    await page.waitForFunction(() => window.__schedplay.simDone && window.__schedplay.events > 5, null, { timeout: 60000, polling: 50 });
    await page.click("#tl-start");
    for (let i = 0; i < 5; i++) await page.click("#tl-fwd");
    const late = await moment(page);
    assert.equal(late.cursor, 4);
    assert.equal(late.quiz, "");
    const later = await copyLink(page);
    const third = await watched(context);
    await third.goto(later);
    await reached(third, late);
    assert.deepEqual(await moment(third), late, "the recipient sees the moment past the questions");
    assert.equal(await third.evaluate(() => window.__schedplayQuiz.passed), 3);

    // The same link in Chinese (a link copied on a page with &lang=).
    const zh = new URL(later);
    zh.searchParams.set("lang", "zh-CN");
    const fourth = await watched(context);
    await fourth.goto(zh.toString());
    await reached(fourth, late);
    const en = await lessonCatalog("en"), cn = await lessonCatalog("zh-CN");
    const key = Object.keys(en).find((k) => k.startsWith("preemption-basic.caption.") && en[k] === late.caption);
    assert.ok(key, `the caption "${late.caption}" is in the catalog`);
    const seen = await moment(fourth);
    assert.equal(seen.caption, cn[key], "the moment's caption in Chinese");
    assert.deepEqual({ ...seen, caption: late.caption, time: late.time }, late);
    assert.equal(await fourth.evaluate(() => document.documentElement.lang), "zh-CN");
    assert.match(fourth.url(), /lesson=preemption-basic&lang=zh-CN#v1\./, "the address keeps lesson and language");

    // The same fragment's text edited: the link, not the lesson.
    const dismiss = page.getByRole("button", { name: "Dismiss" });
    if (await dismiss.count() > 0) await dismiss.click();
    await appendText(page, "\n# changed\n");
    const edited = new URL(await copyLink(page));
    const fifth = await watched(context);
    await fifth.goto(new URL(`index.html?lesson=preemption-basic${edited.hash}`, url).toString());
    await ready(fifth);
    assert.match(await editorText(fifth), /# changed/, "the link's text");
    assert.equal(await fifth.locator(".course-bar").count(), 0, "no course lesson claimed");
    assert.equal(await fifth.getByText("There is no lesson named").count(), 0);
    assert.doesNotMatch(fifth.url(), /lesson=/, "the address forgets the lesson");
    for (const p of [page, other, third, fourth, fifth]) assert.deepEqual(p.errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});

// watched is a new page whose errors and dialogs are collected.
const watched = async (context) => watch(await context.newPage());

// questionOpen waits until the course's question id is asked.
const questionOpen = (page, id) => page.waitForFunction(
  (q) => window.__schedplayQuiz.shown === q && !document.getElementById("quiz").hidden, id, { timeout: 60000, polling: 50 });

// passQuestion answers question id as a learner may (an option, then the
// answer shown if it was wrong) and plays on.
async function passQuestion(page, id) {
  await questionOpen(page, id);
  await page.locator(".quiz-option").first().click();
  if (await page.locator(".quiz-check").count() > 0) await page.locator(".quiz-check").click();
  await page.locator(".quiz-wrong, .quiz-right").first().waitFor();
  if (await page.locator(".quiz-reveal").count() > 0) await page.locator(".quiz-reveal").click();
  await page.locator(".quiz-continue").click();
}

async function copyLink(page) {
  await page.evaluate(() => { window.__schedplayShare.lastLink = ""; });
  await page.click("#copy-link");
  await page.waitForFunction(() => window.__schedplayShare.lastLink !== "");
  return page.evaluate(() => window.__schedplayShare.lastLink);
}

// moment is what the page shows of playback and the lesson.
const moment = (page) => page.evaluate(() => ({
  cursor: window.__schedplay.cursor,
  now: window.__schedplay.now,
  done: window.__schedplay.simDone,
  time: document.getElementById("tl-time").textContent,
  caption: document.getElementById("lesson-caption").textContent,
  quiz: document.getElementById("quiz").hidden ? "" : window.__schedplayQuiz.shown,
  pod: document.getElementById("details").hidden ? "" : document.querySelector("#details-body h2")?.textContent,
  bar: document.querySelectorAll(".course-bar").length,
}));

// reached waits until the page shows the moment's event and time.
const reached = (page, m) => page.waitForFunction(
  (w) => window.__schedplay?.drawnGen >= 1 && window.__schedplay.cursor === w.cursor && window.__schedplay.now === w.now &&
    window.__schedplay.simDone === w.done && document.querySelector(".course-bar") !== null,
  m, { timeout: 60000, polling: 50 });

// A link copied in a lesson that has changed since (here: its fragment's
// text edited) shows what the sender saw, their text and moment, but does
// not pass for the lesson: a notice in the status banner, a live region in
// the page before its words, says the link shows the lesson as it was and
// links to the lesson as it is now (with the page's language), which opens
// the course's lesson. The words are the catalogs' and the lesson's
// translated title. A link whose text is the lesson's shows no notice. A
// damaged lesson link opens the lesson from its start with the link's
// error, and the address keeps the lesson without the damaged fragment.
test("a lesson link whose text is not the lesson's says so and links to it", async () => {
  const browser = await launch();
  try {
    // axe-core comes in as a script tag, which the page's CSP would refuse.
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US", bypassCSP: true });
    await context.addInitScript(() => {
      window.__bannerAtInsert = null;
      new MutationObserver((ms) => {
        for (const m of ms) for (const n of m.addedNodes) if (n.id === "share-banner" && window.__bannerAtInsert === null) window.__bannerAtInsert = n.textContent;
      }).observe(document, { childList: true, subtree: true });
    });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
    const sender = await watched(context);
    await sender.goto(new URL("index.html?lesson=preemption-basic", url).toString());
    await ready(sender);
    const same = await copyLink(sender);
    assert.match(same, /\?lesson=preemption-basic#v1\./);
    await appendText(sender, "\n# changed\n");
    // The edit is still in the course, held at its first question: the
    // moment is its first event, paused.
    await sender.waitForFunction(() => !window.__schedplay.editPending && window.__schedplay.loads >= 2 && !window.__schedplay.loading &&
      window.__schedplay.drawnGen >= window.__schedplay.loadedGen && window.__schedplay.events >= 1, null, { timeout: 60000, polling: 50 });
    await sender.click("#tl-start");
    await sender.click("#tl-fwd");
    const sent = await sender.evaluate(() => ({ cursor: window.__schedplay.cursor, now: window.__schedplay.now }));
    assert.equal(sent.cursor, 0, "the sender's moment");
    const { hash } = new URL(await copyLink(sender));
    const titles = { en: await lessonCatalog("en"), "zh-CN": await lessonCatalog("zh-CN") };

    for (const lang of ["en", "zh-CN"]) {
      const cat = JSON.parse(await readFile(new URL(`../locales/${lang}.json`, import.meta.url), "utf8"));
      const q = lang === "en" ? "" : `&lang=${lang}`;
      const page = await watched(context);
      await page.goto(new URL(`index.html?lesson=preemption-basic${q}${hash}`, url).toString());
      await ready(page);
      await page.waitForFunction((w) => window.__schedplay.cursor === w.cursor && window.__schedplay.now === w.now, sent, { timeout: 60000, polling: 50 });
      await page.waitForTimeout(300);
      assert.deepEqual(await page.evaluate(() => ({ cursor: window.__schedplay.cursor, now: window.__schedplay.now })), sent, "the sender's moment, paused");
      assert.match(await editorText(page), /# changed/, "the sender's text");
      assert.equal(await page.locator(".course-bar").count(), 0, "no course lesson claimed");
      assert.doesNotMatch(page.url(), /lesson=/, "the address forgets the lesson");
      const title = titles[lang]["preemption-basic.title"];
      const notice = page.getByRole("status").filter({ hasText: cat["course.oldLink"].replace("{title}", title) });
      await notice.waitFor();
      assert.ok((await notice.textContent()).includes(cat["course.changedSince"]), await notice.textContent());
      assert.equal(await page.evaluate(() => window.__bannerAtInsert), "", "the live region was there, empty, before its words");
      const current = notice.getByRole("link", { name: cat["course.openCurrent"], exact: true });
      assert.equal(await current.getAttribute("href"), `index.html?lesson=preemption-basic${q}`);
      await notice.getByRole("button", { name: cat["share.dismiss"] }).waitFor();
      await current.focus();
      assert.equal(await current.evaluate((a) => a === document.activeElement), true, "the link takes the keyboard's focus");
      if (lang === "en") {
        for (const theme of ["light", "dark"]) {
          await page.evaluate((t) => { if (document.documentElement.dataset.theme !== t) document.getElementById("theme").click(); }, theme);
          const bad = await axe(page);
          assert.deepEqual(bad, [], `${theme}: ${bad.join("\n")}`);
        }
        await page.screenshot({ path: join(out, "lesson-changed-en.png") });
      }
      await current.click();
      await page.waitForURL(/lesson=preemption-basic/);
      await ready(page);
      await page.locator(".course-bar").waitFor();
      assert.equal(await page.locator("#lesson-title").textContent(), title);
      assert.doesNotMatch(await editorText(page), /# changed/, "the lesson as it is");
      assert.equal(await page.locator("#share-banner").textContent(), "", "no notice");
      assert.deepEqual(page.errors, []);
    }

    // The lesson's own text: the lesson at its moment, no notice.
    const en = JSON.parse(await readFile(new URL("../locales/en.json", import.meta.url), "utf8"));
    const plain = await watched(context);
    await plain.goto(same);
    await ready(plain);
    await plain.locator(".course-bar").waitFor();
    assert.match(plain.url(), /lesson=preemption-basic/);
    assert.equal(await plain.getByText(en["course.changedSince"]).count(), 0, "no notice");
    assert.equal(await plain.locator("#share-banner").textContent(), "");

    // The same link cut short: the lesson from its start, the link's error.
    const cut = await watched(context);
    await cut.goto(same.slice(0, same.length - 30));
    await ready(cut);
    await cut.locator(".course-bar").waitFor();
    const error = cut.getByRole("alert").filter({ hasText: en["share.linkFailed"] });
    await error.waitFor();
    assert.ok((await error.textContent()).includes(en["course.fromStart"]), await error.textContent());
    assert.doesNotMatch(await editorText(cut), /# changed/);
    assert.match(cut.url(), /\/index\.html\?lesson=preemption-basic$/, "the lesson, without the damaged fragment");
    for (const p of [sender, plain, cut]) assert.deepEqual(p.errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});

// A lesson the course does not have (a shared link with a typo): the page
// says so in its status banner, a polite live region that was in the page
// before the words (a region inserted with its words is often not read),
// shows the learner's draft as it would without the lesson, and drops the
// lesson from the address, so that a reload shows the same draft. A lesson
// the course has opens without the message.
test("an unknown lesson in the address: a message, the draft, a plain address", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    await context.addInitScript(() => {
      window.__bannerAtInsert = null;
      new MutationObserver((ms) => {
        for (const m of ms) for (const n of m.addedNodes) if (n.id === "share-banner" && window.__bannerAtInsert === null) window.__bannerAtInsert = n.textContent;
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    page.errors = [];
    page.on("pageerror", (e) => page.errors.push(e.message));
    await page.goto(url);
    await ready(page);
    await appendText(page, "\n# my own draft\n");
    for (let i = 0; i < 100 && !/# my own draft/.test((await idbDraft(page, "schedplay.draft")) ?? ""); i++) await page.waitForTimeout(100);
    await page.goto(new URL("index.html?lesson=topology-spread", url).toString());
    await ready(page);
    const message = page.getByRole("status").filter({ hasText: "There is no lesson named “topology-spread”." });
    await message.waitFor();
    const words = await message.textContent();
    assert.match(words, /The editor shows your draft instead\./);
    assert.match(words, /Every lesson is listed under “Lessons” at the top of the page\./);
    assert.equal(await page.evaluate(() => window.__bannerAtInsert), "", "the live region was there, empty, before its words");
    const like = message.getByRole("link", { name: "topology-spread-scores", exact: true });
    assert.match(await like.getAttribute("href"), /lesson=topology-spread-scores$/);
    assert.match(await editorText(page), /# my own draft/, "the draft is shown");
    assert.doesNotMatch(page.url(), /lesson=/, "the address claims no lesson");
    assert.equal(await page.locator(".course-bar").count(), 0, "no course lesson claimed");
    await page.screenshot({ path: join(out, "lesson-unknown-en.png") });
    await page.reload();
    await ready(page);
    assert.match(await editorText(page), /# my own draft/, "a reload shows the same draft");
    assert.equal(await page.getByText("There is no lesson named").count(), 0);
    // With a damaged link in the fragment too, the link's error says what
    // the editor shows, and the lesson's message follows it.
    await page.goto(new URL("index.html?lesson=topology-spread#v1.zzzzzzzzzzzz", url).toString());
    await ready(page);
    const both = page.getByRole("alert").filter({ hasText: "Could not open the link." });
    await both.getByText("There is no lesson named “topology-spread”.").waitFor();
    assert.doesNotMatch(await both.textContent(), /The editor shows your draft instead/, "said once, by the link's error");
    assert.match(page.url(), /\/index\.html#v1\.zzzzzzzzzzzz$/, "the address keeps the link, not the lesson");
    // A similar name's link opens that lesson, with no message.
    await page.goto(new URL("index.html?lesson=topology-spread", url).toString());
    await ready(page);
    await message.getByRole("link", { name: "topology-spread-min-domains", exact: true }).click();
    await page.waitForURL(/lesson=topology-spread-min-domains/);
    await ready(page);
    await page.locator("#lesson-title").waitFor();
    assert.equal(await page.getByText("There is no lesson named").count(), 0, "a known lesson opens without the message");
    assert.match(page.url(), /lesson=topology-spread-min-domains/, "and its address keeps it");
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});

// example=NAME, the embed's word for the same file, names the lesson too
// (an embed's query copied into the playground's address): the course's
// lesson, its question asked; a name the course does not have says so and
// the address drops it.
test("example= opens the lesson as lesson= does", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
    const page = await watched(context);
    await page.goto(new URL("index.html?example=preemption-basic&lang=id", url).toString());
    await ready(page);
    await page.locator(".course-bar").waitFor();
    assert.equal(await page.locator("#lesson-title").textContent(), (await lessonCatalog("id"))["preemption-basic.title"]);
    await questionOpen(page, "where");
    assert.equal(await page.locator("#share-banner").textContent(), "", "no message");
    await page.goto(new URL("index.html?example=preemption-basc", url).toString());
    await ready(page);
    await page.getByRole("status").filter({ hasText: "There is no lesson named “preemption-basc”." }).waitFor();
    assert.equal(new URL(page.url()).search, "", "the address drops the name");
    assert.deepEqual(page.errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});

// A lesson of the course whose file does not arrive (a server error, the
// network gone) says so too, with a button that tries again.
test("a lesson whose file does not load: a message and Try again", async () => {
  const browser = await launch();
  try {
    // No service worker: the test's route must see the page's fetch.
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US", serviceWorkers: "block" });
    const page = await context.newPage();
    await page.route("**/examples/preemption-basic.yaml", (r) => r.fulfill({ status: 503, body: "" }));
    await page.goto(new URL("index.html?lesson=preemption-basic", url).toString());
    await ready(page);
    const message = page.getByRole("status").filter({ hasText: "Could not load the lesson “preemption-basic” (HTTP 503)." });
    await message.waitFor();
    assert.match(await message.textContent(), /The editor shows the default scenario instead\./);
    assert.doesNotMatch(page.url(), /lesson=/);
    await page.unroute("**/examples/preemption-basic.yaml");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.waitForURL(/lesson=preemption-basic/);
    await ready(page);
    await page.locator("#quiz:not([hidden])").waitFor({ timeout: 30000 });
    assert.equal(await page.getByText("Could not load the lesson").count(), 0);
    await context.close();
  } finally {
    await browser.close();
  }
});

test("presenter mode: editor hidden, large caption, arrow keys step", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(new URL("index.html?lesson=preemption-basic", url).toString());
    await ready(page);
    await page.getByRole("button", { name: "Present" }).click();
    await page.waitForFunction(() => window.__schedplayPresenter.on);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(out, "presenter-1280x720.png") });
    assert.equal(await page.locator("#editor-pane").isVisible(), false);
    const caption = await page.locator("#lesson-caption").evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    assert.ok(caption >= 24, `caption ${caption} px`);
    // One key press does one thing: Esc closes what is open over the
    // lesson (here the shortcuts' help) before it leaves presenter mode.
    await page.locator(".quiz-option").first().focus();
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    await page.keyboard.press("Escape");
    await help.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => window.__schedplayPresenter.on), true, "Esc closed the help and left presenter mode too");
    await page.locator(".quiz-option").first().focus();
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !window.__schedplayPresenter.on);
    await context.close();
  } finally {
    await browser.close();
  }
});

// Label sizes come from the canvas through the bridge (locate's label:
// the size names of that kind are drawn at, in CSS px), for the lessons
// of three and six nodes; the whole cluster stays on the canvas.
test("presenter mode: labels of at least 18 CSS px at 1280x720", async () => {
  const browser = await launch();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    for (const [lesson, pod, nodes] of [
      ["preemption-basic", "default/low-b1", ["node-a", "node-b", "node-c"]],
      ["node-constraints", "default/holder", ["node-a", "node-b", "node-c", "node-d", "node-e"]],
    ]) {
      await page.goto(new URL(`index.html?lesson=${lesson}`, url).toString());
      await ready(page);
      const before = await labels(page, pod, nodes);
      await page.getByRole("button", { name: "Present" }).click();
      await page.waitForFunction(() => window.__schedplayPresenter.on);
      await page.waitForTimeout(1500);
      const after = await labels(page, pod, nodes);
      console.log(`${lesson}: pod labels ${before.pod.toFixed(1)} -> ${after.pod.toFixed(1)} px, node labels ${before.node.toFixed(1)} -> ${after.node.toFixed(1)} px`);
      assert.ok(after.pod >= 18 && after.node >= 18, `${lesson}: pod ${after.pod} px, node ${after.node} px`);
      const frame = await page.locator("#stage").boundingBox();
      for (const r of after.nodes) {
        assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= frame.width + 0.5 && r.y + r.h <= frame.height + 0.5, `${lesson}: a node card off the canvas: ${JSON.stringify(r)} in ${frame.width}x${frame.height}`);
      }
      await page.screenshot({ path: join(out, `presenter-${lesson}-1280x720.png`) });
      await page.keyboard.press("Escape");
      await page.waitForFunction(() => !window.__schedplayPresenter.on);
    }
    await context.close();
  } finally {
    await browser.close();
  }
});

// labels reads the label sizes and the node cards' places from the bridge.
async function labels(page, pod, nodes) {
  const chip = await bridge(page, "locate", "pod", pod);
  const cards = [];
  let node = 0;
  for (const n of nodes) {
    const r = await bridge(page, "locate", "node", n);
    assert.ok(r.ok, `node ${n} on the canvas`);
    cards.push(r);
    node = r.labelPx;
  }
  assert.ok(chip.ok, `pod ${pod} on the canvas`);
  return { pod: chip.labelPx, node, nodes: cards };
}

// The lesson's own words come from web/locales/lessons (read here, not
// typed in the test), field and pod names as upstream prints them.
const lessonCatalog = async (lang) => JSON.parse(await readFile(new URL(`../locales/lessons/${lang}.json`, import.meta.url), "utf8"));

for (const [lang, lessons, present] of [["zh-CN", "课程", "演示"], ["id", "Pelajaran", "Presentasi"]]) {
  test(`the page in ${lang}`, async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: lang });
      const page = await context.newPage();
      await page.goto(new URL("index.html?lesson=preemption-basic", url).toString());
      await ready(page);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      await page.getByRole("link", { name: lessons, exact: true }).waitFor();
      await page.getByRole("button", { name: present }).waitFor();
      await page.waitForSelector("#quiz:not([hidden])", { timeout: 30000 });
      const cat = await lessonCatalog(lang);
      assert.equal(await page.locator("#lesson-title").textContent(), cat["preemption-basic.title"]);
      assert.equal(await page.locator("#lesson-caption").textContent(), cat["preemption-basic.caption.0"]);
      assert.match(await page.locator("#quiz").textContent(), new RegExp(cat["preemption-basic.q.where"].replace(/[?？]/g, ".")));
      await page.screenshot({ path: join(out, `lesson-${lang}.png`) });
      await page.goto(new URL(`gallery.html?lang=${lang}`, url).toString());
      await page.waitForSelector(".toc-line");
      await page.screenshot({ path: join(out, `course-index-${lang}.png`) });
      await context.close();
    } finally {
      await browser.close();
    }
  });
}

// The glossary from a caption: a term in the lesson's caption opens its
// entry, in the page's language (the words read from web/locales/glossary).
for (const lang of ["en", "zh-CN"]) {
  test(`a caption's term opens its glossary entry (${lang})`, async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: lang === "en" ? "en-US" : lang });
      const page = await context.newPage();
      const glossary = JSON.parse(await readFile(new URL(`../locales/glossary/${lang}.json`, import.meta.url), "utf8"));
      await page.goto(new URL("index.html?lesson=queue-requeue-and-flush", url).toString());
      await ready(page);
      // Its question comes first: answered (the engine's answer, from a
      // wrong guess through the bridge), the rest of the run comes.
      await page.waitForSelector("#quiz:not([hidden])", { timeout: 30000 });
      const engine = await bridge(page, "answer", "helped", "");
      await page.locator(`.quiz-option[data-value="${engine.answer.pods[0]}"]`).click();
      await page.locator(".quiz-continue").click();
      // End goes to the last event the run has reached so far: again until
      // the flush's caption shows.
      const term = page.locator("#lesson-caption .term[data-term='flush']");
      for (let i = 0; i < 60 && await term.count() === 0; i++) {
        await page.locator("#lesson-title").click();
        await page.keyboard.press("End");
        await page.waitForTimeout(500);
      }
      assert.ok(await page.locator("#log-list .term").count() > 0, "event log lines link their terms too");
      await term.click();
      const dialog = page.getByRole("dialog", { name: lang === "en" ? "Glossary" : "术语表" });
      await dialog.waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), "term-flush");
      assert.equal(await page.locator("#term-flush").textContent(), glossary.flush.name);
      assert.equal(await page.locator("#term-flush + dd").textContent(), glossary.flush.def);
      await page.screenshot({ path: join(out, `glossary-${lang}.png`) });
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      await context.close();
    } finally {
      await browser.close();
    }
  });
}

// A question comes before its answer: while it is open, no view of the
// page (event log, text view, caption, summary) holds the event that
// answers it, since the session's trace stops just before it; answered,
// playback goes on and the answer shows. The answer is the engine's (a
// wrong guess through the bridge gets it without closing the question).
for (const [w, h] of [[1280, 720], [390, 844]]) {
  test(`a question's answer is not on screen before it is answered (${w}x${h})`, async () => {
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: w, height: h }, locale: "en-US" });
      const page = await context.newPage();
      const cat = await lessonCatalog("en");
      await page.goto(new URL("index.html?lesson=topology-spread-scores", url).toString());
      await ready(page);
      await page.waitForSelector("#quiz:not([hidden])", { timeout: 30000 });
      const engine = await bridge(page, "answer", "where", "");
      assert.equal(engine.right, false, "the bridge's guess is a wrong one");
      const right = engine.answer.nodes[0];
      const pod = "mypod";
      const answered = new RegExp(`${pod} → ${right}`);
      await page.locator("#quiz").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(out, `question-${w}x${h}.png`) });
      await page.$eval("#tl-text", (b) => b.click()); // on a phone the button may be scrolled away
      await page.waitForSelector("#textview:not([hidden])", { state: "attached" });
      await page.waitForTimeout(1000); // time enough for playback to run past the question, if it could
      // Held by the question, the run is not "simulating": no progress line.
      assert.equal(await page.locator(".sim-progress").isVisible(), false, "a progress line while the question holds the run");
      await page.screenshot({ path: join(out, `question-textview-${w}x${h}.png`) });
      const log = await page.locator("#log-list").textContent();
      assert.doesNotMatch(log, answered, "the event log");
      assert.doesNotMatch(log, /Scheduled/, "the event log");
      const text = await page.locator("#textview").textContent();
      assert.match(text, new RegExp(`${pod}[^]*pending`), "the text view shows the pod pending");
      assert.equal(await page.locator("#lesson-caption").textContent(), cat["topology-spread-scores.caption.0"]);
      const summary = await page.locator("#lesson-summary").getAttribute("title");
      assert.doesNotMatch(summary, new RegExp(`\\b${right}\\b`), "the summary");
      const details = await bridge(page, "details", "pod", `default/${pod}`);
      assert.equal(details.attempt, undefined, "no explained cycle in the details panel");
      await page.locator(`.quiz-option[data-value="${right}"]`).click();
      await page.waitForSelector(".quiz-right");
      await page.locator(".quiz-continue").click();
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector("#log-list")?.textContent ?? ""), answered.source, { timeout: 30000 });
      await page.waitForFunction((c) => document.querySelector("#lesson-caption")?.textContent === c, cat["topology-spread-scores.caption.1"], { timeout: 30000 });
      await context.close();
    } finally {
      await browser.close();
    }
  });
}

// The unknown lesson's message in the page's other languages (?lang=), read
// from their catalogs; with no draft the editor shows the default scenario.
test("an unknown lesson's message in Indonesian and Chinese", async () => {
  const browser = await launch();
  try {
    for (const lang of ["id", "zh-CN"]) {
      const cat = JSON.parse(await readFile(new URL(`../locales/${lang}.json`, import.meta.url), "utf8"));
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: "en-US" });
      const page = await context.newPage();
      await page.goto(new URL(`index.html?lesson=topology-spread&lang=${lang}`, url).toString());
      await ready(page);
      const message = page.getByRole("status").filter({ hasText: cat["course.noLesson"].replace("{name}", "topology-spread") });
      await message.waitFor();
      const words = await message.textContent();
      assert.ok(words.includes(cat["course.showsDefault"]), words);
      assert.ok(words.includes(cat["course.findAll"].replace("{lessons}", cat["ui.lessons"])), words);
      assert.ok(words.includes(cat["course.similar"]), words);
      // Three similar lessons, listed with the language's separators.
      const sep = lang === "zh-CN" ? "、" : ", ";
      assert.match(words, new RegExp(`topology-spread-[a-z-]+${sep}topology-spread-[a-z-]+${sep}topology-spread-[a-z-]+`), words);
      await message.getByRole("link", { name: "topology-spread-scores", exact: true }).waitFor();
      await message.getByRole("button", { name: cat["share.dismiss"] }).waitFor();
      assert.equal(new URL(page.url()).search, `?lang=${lang}`, "the address keeps its language, not the lesson");
      await page.screenshot({ path: join(out, `lesson-unknown-${lang}.png`) });
      await context.close();
    }
  } finally {
    await browser.close();
  }
});
