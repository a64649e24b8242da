// End-to-end tests of the embed as a guest on a documentation page of
// another origin (a second port of 127.0.0.1, served here): a quiet console
// over a whole playback, errors shown in the frame, the playback controls by
// mouse and keyboard, theme=auto, script-tag authoring, the offline reload,
// and the figures of the closing note (bytes, first frame, screenshots).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch, shots, url } from "./helpers.mjs";
import { web } from "../unit/load.mjs";

const basic = readFileSync(join(web, "..", "examples", "preemption-basic.yaml"), "utf8");
const escapeHTML = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

// pages: path -> html of the host site.
function hostServer(pages) {
  const server = createServer((req, res) => {
    if (req.url === "/favicon.ico") return res.writeHead(204).end();
    const body = pages(new URL(req.url, "http://x"), req);
    res.statusCode = body === null ? 404 : 200;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(body ?? "not found");
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const hostPage = (body) => `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;font:14px system-ui">
<h1 style="margin:8px">Host documentation page</h1>
${body}
<script>
window.got = [];
addEventListener("message", (e) => { if (e.data && e.data.schedplay === 1) window.got.push({ origin: e.origin, ...e.data }); });
window.hello = (i, origin) => document.querySelectorAll("iframe")[i].contentWindow.postMessage({ schedplay: 1, type: "hello" }, origin);
window.send = (i, msg, origin) => document.querySelectorAll("iframe")[i].contentWindow.postMessage({ schedplay: 1, ...msg }, origin);
</script></body></html>`;

const frame = (params, w = 800, h = 500) =>
  `<iframe src="${url}embed.html?${params}" style="display:block;width:${w}px;height:${h}px;border:0"></iframe>`;

// consoleLog records every console message and page error of a page and
// its frames, with the URL of the frame that logged it.
function consoleLog(page) {
  const log = [];
  page.on("console", (m) => log.push({ type: m.type(), text: m.text(), where: m.location()?.url ?? "" }));
  page.on("pageerror", (e) => log.push({ type: "pageerror", text: e.message, where: "" }));
  return log;
}
// Headless Chromium composites in software and reads every changed WebGL
// frame back (docs/performance-web.md, seventh pass); its GL driver reports
// the first four read-backs as "GPU stall due to ReadPixels" performance
// warnings of the canvas. They are the browser's, present with any WebGL
// page when the compositor has no GPU, and are left out here; anything
// else counts.
const readBack = /^\[\.WebGL-[0-9a-fx]+\]GL Driver Message \(OpenGL, Performance, [A-Z_]+, High\): GPU stall due to ReadPixels/;
// shot screenshots the i-th embed frame of a page.
async function shot(page, name, i = 0) {
  const clip = await page.locator("iframe").nth(i).boundingBox();
  await page.screenshot({ path: join(shots, name), clip });
}
const loud = (log) => log.filter((m) => (m.type === "error" || m.type === "warning" || m.type === "pageerror") && !readBack.test(m.text));

const embedFrame = (page, i = 0) => page.frames().filter((f) => f.url().includes("embed.html"))[i];
async function waitEmbedFrame(page, i = 0) {
  for (let k = 0; k < 200; k++) {
    const f = embedFrame(page, i);
    if (f) return f;
    await page.waitForTimeout(50);
  }
  throw new Error(`no embed frame ${i}`);
}
// stageBoxes reads, in an embed frame, its canvas frame's box and its
// message's.
const stageBoxes = (f) => f.evaluate(() => {
  const box = (e) => { const b = e.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
  return { canvas: box(document.querySelector("#stage-box iframe")), error: box(document.getElementById("embed-error")) };
});
// relaidOut waits until the embed's canvas has re-laid out to its frame's
// box: ebiten's canvas as large as the frame, its drawing buffer sized to it.
const relaidOut = (f, want) => f.waitForFunction(([w, h]) => {
  const s = document.querySelector("#stage-box iframe").contentWindow;
  const c = s.document.querySelector("canvas");
  return c && Math.abs(s.innerWidth - w) <= 1 && Math.abs(s.innerHeight - h) <= 1 && Math.abs(c.clientHeight - s.innerHeight) <= 1 &&
    Math.abs(c.height - Math.round(c.clientHeight * s.devicePixelRatio)) <= 2;
}, [want.w, want.h], { timeout: 5000, polling: 50 });
const embedState = (f) => f.evaluate(() => ({ ...window.__schedplayEmbed }));
async function drawn(f, timeout = 90000) {
  await f.waitForFunction(() => window.__schedplayEmbed?.drawnGen >= 1 && window.__schedplayEmbed.loadedGen >= 1, null, { timeout, polling: 50 });
}

describe("embed on another origin", () => {
  let browser, server, host;
  const origin = new URL(url).origin;
  before(async () => {
    browser = await launch();
    server = await hostServer((u, req) => {
      const me = `http://${req.headers.host}`;
      const p = u.searchParams;
      switch (u.pathname) {
        // Embeds that are never spoken to, and one whose host says hello.
        case "/quiet":
          return hostPage(frame(`example=preemption-basic&autoplay=1&load=eager`, 640, 420) +
            frame(`example=preemption-basic&autoplay=1&load=eager&origins=${encodeURIComponent(me)}`, 640, 420) +
            `<script>
              // A mistake of the host's own: proves the log catches what
              // Chromium reports of a postMessage to the wrong origin.
              addEventListener("load", () => frames[0].postMessage("x", "https://wrong.example"));
            </script>`);
        case "/bad":
          return hostPage(frame(`example=no-such-lesson&origins=${encodeURIComponent(me)}`, 400, 300) +
            frame(`origins=,not%20an%20origin,${encodeURIComponent(me)}/,https://x.example/path#v1.AAAAbroken`, 400, 300));
        // The playground's lesson=, copied into embeds: a lesson, a typo
        // of one (English and Chinese) and a typo of an example=.
        case "/lesson":
          return hostPage(frame(`lesson=preemption-basic&load=click&editor=open`, 400, 300) +
            frame(`lesson=preemption-basc&load=click`, 400, 300) +
            frame(`lesson=preemption-basc&load=click&lang=zh-CN`, 400, 300) +
            frame(`example=preemption-basc&load=click&lang=id`, 400, 300));
        case "/edit":
          return hostPage(frame(`example=preemption-basic&load=eager&editor=open`, 640, 480));
        case "/open":
          return hostPage(frame(`example=preemption-basic&load=eager&editor=open&lang=zh-CN`, 640, 480));
        case "/one":
          return hostPage(frame(`example=${p.get("example") ?? "preemption-basic"}&load=eager&theme=${p.get("theme") ?? "auto"}&origins=${encodeURIComponent(me)}`,
            Number(p.get("w") ?? 800), Number(p.get("h") ?? 500)));
        case "/many":
          return hostPage(Array.from({ length: Number(p.get("n")) }, () => frame(`example=preemption-basic&load=eager`, 400, 300)).join("\n"));
        case "/authoring":
          return hostPage(`<script src="${url}embed.js" defer></script>
            <div style="width:640px"><p>A lesson by name:</p><div data-schedplay="preemption-basic" data-title="Preemption"></div></div>
            <div style="height:2400px"></div>
            <div style="width:640px"><pre class="schedplay" data-autoplay="1">${escapeHTML(basic)}</pre></div>`);
        case "/lang":
          return hostPage(`<script src="${url}embed.js" defer></script>
            <div style="width:640px"><div data-schedplay="preemption-basic" data-lang="${p.get("lang")}"></div></div>`);
        default:
          return null;
      }
    });
    host = `http://127.0.0.1:${server.address().port}`;
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });

  test("over a whole playback the host's console hears nothing from the embeds", async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 1000 } });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/quiet");
    const quietOne = embedFrame(page, 0), spoken = embedFrame(page, 1);
    await drawn(quietOne);
    await drawn(spoken);
    await page.evaluate((o) => window.hello(1, o), origin);
    // Both play to the end of the trace.
    for (const f of [quietOne, spoken]) {
      await f.waitForFunction(() => {
        const s = window.__schedplayEmbed;
        return s.simDone && !s.playing && s.events > 0 && s.cursor === s.events - 1;
      }, null, { timeout: 120000, polling: 100 });
    }
    const got = await page.evaluate(() => window.got);
    assert.ok(got.length > 0 && got.every((m) => m.origin === origin), "the spoken-to embed answers, from its origin");
    assert.ok(got.some((m) => m.type === "hello") && got.some((m) => m.type === "loaded" && m.ok), JSON.stringify(got.map((m) => m.type)));
    // Messages sent before the hello wait for it; "time" reports the end.
    assert.equal(got.filter((m) => m.type === "time").pop()?.playing, false);
    assert.equal((await embedState(quietOne)).peer, "", "an embed nobody spoke to posts nothing");
    const fromHost = loud(log).filter((m) => /wrong\.example/.test(m.text));
    assert.equal(fromHost.length, 1, `the log sees the host's own postMessage mistake: ${JSON.stringify(log)}`);
    const rest = loud(log).filter((m) => !/wrong\.example/.test(m.text));
    assert.deepEqual(rest, [], "errors or warnings in the console over a playback");
    await context.close();
  });

  test("a wrong example or a damaged link says so in the frame and to the host", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/bad");
    const [noSuch, damaged] = [embedFrame(page, 0), embedFrame(page, 1)];
    for (const f of [noSuch, damaged]) await f.waitForFunction(() => window.__schedplayEmbed?.error !== "", null, { timeout: 20000, polling: 50 });
    // A polite status, not an alert: the page's author's mistake must not
    // cut into what the reader's screen reader is reading on the host page.
    const said = noSuch.getByRole("status").filter({ hasText: /no example named "no-such-lesson"/ });
    assert.equal(await said.isVisible(), true);
    assert.equal(await noSuch.getByRole("button", { name: "▶ Load the playground" }).count(), 0, "nothing to load");
    await damaged.getByRole("status").filter({ hasText: /link is damaged/ }).waitFor();
    for (const f of [noSuch, damaged]) assert.equal(await f.getByRole("alert").count(), 0, "no assertive region");
    // origins= with malformed entries: they are left out, the good one kept.
    const st = await embedState(damaged);
    assert.deepEqual(st.ignoredOrigins, ["not an origin", "https://x.example/path"]);
    await page.evaluate((o) => { window.hello(0, o); window.hello(1, o); }, origin);
    await page.waitForFunction(() => window.got.filter((m) => m.type === "error").length === 2, null, { timeout: 10000, polling: 50 });
    const errors = await page.evaluate(() => window.got.filter((m) => m.type === "error").map((m) => m.message));
    assert.ok(errors.some((m) => /no-such-lesson/.test(m)) && errors.some((m) => /damaged/.test(m)), JSON.stringify(errors));
    await shot(page, "40-embed-bad-example.png");
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  // lesson=NAME, the playground's parameter, names the same file as
  // example=NAME; a name the site does not have says so, politely, with the
  // similar names listed as the embed's language lists them.
  test("lesson= opens the example of that name; a wrong one says so", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 1400 }, locale: "en-US" });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/lesson");
    const [good, typo, zh, id] = await Promise.all([0, 1, 2, 3].map((i) => waitEmbedFrame(page, i)));
    const yaml = good.getByRole("textbox", { name: "Scenario YAML" });
    await good.waitForFunction(() => document.getElementById("yaml").value !== "", null, { timeout: 20000, polling: 50 });
    assert.equal(await yaml.inputValue(), basic, "the example's YAML");
    await good.getByRole("button", { name: "▶ Load the playground" }).waitFor();
    await good.getByText("Preemption, the basic case", { exact: true }).waitFor();
    // The message's region is in the page from the start, empty.
    assert.deepEqual(await good.getByRole("status").allTextContents(), ["", ""], "the regions, empty");
    assert.equal(await yaml.getAttribute("aria-invalid"), null);

    const small = (lang) => JSON.parse(readFileSync(join(web, "locales", "embed", `${lang}.json`), "utf8"));
    // Three examples sharing the word "preemption", the typo's own first,
    // listed as each language lists alternatives.
    const name = "[a-z]+(?:-[a-z]+)+";
    const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const meant = (lang, list) => new RegExp(esc(small(lang)["embed.didYouMean"]).replace(esc("{names}"), list));
    const cases = [
      [typo, "en", meant("en", `preemption-basic, ${name}, or ${name}`)],
      [zh, "zh-CN", meant("zh-CN", `preemption-basic、${name}或${name}`)],
      [id, "id", meant("id", `preemption-basic, ${name}, atau ${name}`)],
    ];
    for (const [f, lang, didYouMean] of cases) {
      const noExample = small(lang)["embed.noExample"].replace("{name}", `"preemption-basc"`);
      const said = f.getByRole("status").filter({ hasText: noExample });
      await said.waitFor({ timeout: 20000 });
      const words = await said.textContent();
      assert.match(words, didYouMean, `${lang}: ${words}`);
      if (lang === "zh-CN") assert.doesNotMatch(words, /[。？] /, "no space after a Chinese sentence");
      assert.equal(await f.getByRole("alert").count(), 0);
    }
    await shot(page, "45-embed-lesson-typo-400x300.png", 1);
    await shot(page, "46-embed-lesson-typo-zh-CN-400x300.png", 2);
    await shot(page, "47-embed-example-typo-id-400x300.png", 3);
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  // editable opens the host page whose embed has its editor open, drawn.
  const editable = async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: "en-US" });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/edit");
    const f = await waitEmbedFrame(page);
    await drawn(f);
    return { context, page, log, f, yaml: f.getByRole("textbox", { name: "Scenario YAML" }) };
  };

  // The reader's own edit that does not load: a polite status too, and the
  // editor marked invalid and described by it; a good edit clears both.
  test("an edit that does not load says so, on the editor too", async () => {
    const { context, log, f, yaml } = await editable();
    assert.equal(await yaml.getAttribute("aria-invalid"), null);
    const ref = (await stageBoxes(f)).canvas;
    await yaml.fill("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: 7\n");
    const error = f.getByRole("status").filter({ hasText: /^Line 6: / });
    await error.waitFor({ timeout: 20000 });
    // The message lies under the canvas, over no part of it (it hid the
    // canvas's legend): the canvas gives up its height and re-lays out.
    const shown = await stageBoxes(f);
    assert.ok(shown.error.h > 0 && shown.error.y >= shown.canvas.y + shown.canvas.h - 0.5, `the message is under the canvas: ${JSON.stringify(shown)}`);
    assert.ok(shown.canvas.h + shown.error.h <= ref.h + 0.5, `the canvas gives up the message's height: ${JSON.stringify({ ref, shown })}`);
    await relaidOut(f, shown.canvas);
    assert.equal(await yaml.getAttribute("aria-invalid"), "true");
    assert.equal(await yaml.getAttribute("aria-describedby"), await error.getAttribute("id"));
    assert.equal(await f.getByRole("alert").count(), 0);
    await yaml.fill(basic);
    await f.waitForFunction(() => window.__schedplayEmbed.error === "" && window.__schedplayEmbed.loadedGen >= 2, null, { timeout: 20000, polling: 50 });
    assert.equal(await yaml.getAttribute("aria-invalid"), null);
    assert.equal(await error.count(), 0, "the message is gone");
    const back = (await stageBoxes(f)).canvas;
    for (const k of ["y", "h"]) assert.ok(Math.abs(back[k] - ref[k]) <= 1, `the canvas's ${k} back to ${ref[k]}: ${back[k]}`);
    await relaidOut(f, back);
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  // Typing loads after each keystroke's frame (edit-pace.ts), as in the
  // playground: the canvas follows the text. What a text that does not
  // load says waits until the typing has paused 250 ms.
  test("typing in the embed loads at each keystroke; its error waits for a pause", async () => {
    const { context, page, log, f, yaml } = await editable();
    await yaml.fill(basic);
    await f.waitForFunction(() => window.__schedplayEmbed.loadedGen >= 2 && window.__schedplayEmbed.error === "", null, { timeout: 20000, polling: 50 });
    await f.evaluate(() => {
      const ta = document.getElementById("yaml");
      ta.focus();
      ta.setSelectionRange(ta.value.length, ta.value.length);
      window.__keys = [];
      window.__said = [];
      // Stamped while capturing, before the embed's own listener stamps
      // the edit (EditPace.lastEditAt), which its 250 ms count from: a
      // stamp after it read a busy machine's listener time as an early
      // error (247.9 ms).
      window.addEventListener("input", () => window.__keys.push({ at: performance.now(), loads: window.__schedplayEmbed.loads }), true);
      new MutationObserver(() => window.__said.push({ at: performance.now(), text: document.getElementById("embed-error").textContent }))
        .observe(document.getElementById("embed-error"), { childList: true, characterData: true, subtree: true });
    });
    // A comment typed 150 ms a key: the first keystroke loads at once (and
    // each while loads take 40 ms or less), not 250 ms after the last.
    const before = await f.evaluate(() => window.__schedplayEmbed.loads);
    await page.keyboard.type("\n# abcde", { delay: 150 });
    const typed = await f.evaluate(() => window.__keys);
    const { loads, loadMs } = await f.evaluate(() => window.__schedplayEmbed);
    console.log(`# ${typed.at(-1).loads - before} loads before the last of 7 keystrokes 150 ms apart, the last ${(loadMs ?? NaN).toFixed(0)} ms`);
    assert.ok(typed.at(-1).loads > before, "no load while typing");
    assert.ok(loads >= typed.at(-1).loads);
    await f.waitForFunction(() => window.__schedplayEmbed.lastReply?.ok && window.__schedplayEmbed.error === "", null, { timeout: 20000, polling: 50 });
    // A document typed 60 ms a key, wrong until it is whole and wrong at
    // its end: the error is said once the typing pauses, never sooner.
    await page.keyboard.type("\n---\nkind: Pod", { delay: 60 });
    await f.getByRole("status").filter({ hasText: /^Line \d+: / }).waitFor({ timeout: 20000 });
    const { keys, said } = await f.evaluate(() => ({ keys: window.__keys, said: window.__said }));
    const early = said.filter((s) => s.text !== "" && keys.some((k) => k.at <= s.at && s.at - k.at < 249));
    assert.deepEqual(early, [], `an error said within 250 ms of a keystroke (keys at ${keys.map((k) => k.at.toFixed(0))})`);
    assert.equal(await yaml.getAttribute("aria-invalid"), "true");
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  // ↗ opens an example the embed shows unedited as the course's lesson
  // (its questions, previous/next) at the moment on screen, in the embed's
  // language; edited, the embed's text as a permalink.
  test("↗ opens the lesson at the embed's moment; edited, its text", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: "en-US" });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/open");
    const f = await waitEmbedFrame(page);
    await drawn(f);
    await f.waitForFunction(() => window.__schedplayEmbed.simDone, null, { timeout: 60000, polling: 50 });
    const openFull = async () => {
      const [tab] = await Promise.all([context.waitForEvent("page"), f.locator("#open-full").click()]);
      await tab.waitForURL(/index\.html/);
      return tab;
    };
    let tab = await openFull();
    let u = new URL(tab.url());
    assert.equal(u.search, "?lesson=preemption-basic&lang=zh-CN", "at the start: the lesson as the course opens it");
    assert.equal(u.hash, "");
    await tab.close();

    for (let i = 0; i < 3; i++) await f.locator("#c-fwd").click();
    const seen = await embedState(f);
    assert.equal(seen.cursor, 2);
    tab = await openFull();
    u = new URL(tab.url());
    assert.equal(u.search, "?lesson=preemption-basic&lang=zh-CN");
    assert.match(u.hash, /^#v1\./, "the moment in the fragment");
    await tab.waitForFunction((m) => window.__schedplay?.cursor === m.cursor && window.__schedplay.now === m.t &&
      document.querySelector(".course-bar") !== null, seen, { timeout: 90000, polling: 50 });
    assert.equal(await tab.evaluate(() => document.documentElement.lang), "zh-CN");
    await tab.close();

    await f.getByRole("textbox").fill(basic + "\n# edited\n");
    await f.waitForFunction(() => window.__schedplayEmbed.loadedGen >= 2, null, { timeout: 20000, polling: 50 });
    tab = await openFull();
    u = new URL(tab.url());
    assert.equal(u.search, "?lang=zh-CN", "edited: no lesson");
    assert.match(u.hash, /^#v1\./, "the embed's text");
    await tab.close();
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  test("the controls play, pause, step, scrub and replay by mouse and keyboard", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/one?w=400&h=300");
    const f = embedFrame(page);
    await drawn(f);
    await f.waitForFunction(() => window.__schedplayEmbed.simDone, null, { timeout: 60000, polling: 50 });
    const st = () => embedState(f);
    // The caption is live only while the reader is in the embed (asked as
    // it changes).
    const live = () => f.getByRole("status").and(f.locator("#embed-caption")).getAttribute("aria-live");
    // stepAside steps (by script, the focus stays where it is) until the
    // caption changes: a lesson's caption spans several events.
    const stepAside = async () => {
      const before = (await st()).caption;
      const changed = await f.evaluate((b) => {
        const s = window.__schedplayEmbed;
        const id = s.cursor >= s.events - 1 ? "c-back" : "c-fwd";
        for (let k = 0; k < 60 && s.caption === b; k++) document.getElementById(id).click();
        return s.caption !== b;
      }, before);
      assert.ok(changed, "the caption changed");
    };
    await stepAside();
    assert.equal(await live(), "off", "quiet while the reader is on the host page");
    const ticks = await f.evaluate(() => [...document.querySelectorAll("#c-ticks i")].map((i) => i.className));
    assert.ok(ticks.includes("preempt") && ticks.includes("bind") && ticks.includes("delete"), JSON.stringify(ticks));

    // Mouse.
    await f.click("#c-play");
    await f.waitForFunction(() => window.__schedplayEmbed.t > 1, null, { timeout: 20000, polling: 50 });
    assert.equal(await live(), "polite", "the reader is in the embed");
    assert.equal(await f.getAttribute("#c-play", "aria-label"), "Pause");
    await f.click("#c-play");
    const held = (await st()).t;
    await page.waitForTimeout(500);
    assert.equal((await st()).t, held, "paused");
    const c0 = (await st()).cursor;
    await f.click("#c-fwd");
    assert.equal((await st()).cursor, c0 + 1);
    await f.click("#c-back");
    await f.click("#c-back");
    assert.equal((await st()).cursor, c0 - 1);
    const caption = await f.textContent("#embed-caption");
    assert.ok(caption.length > 10, `the caption reads as text: ${caption}`);
    // Scrub to the end by mouse: the play button offers a replay.
    const box = await f.locator("#c-scrub").boundingBox();
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    const end = Number(await f.getAttribute("#c-scrub", "max"));
    await f.waitForFunction((e) => window.__schedplayEmbed.t >= e, end, { timeout: 5000, polling: 50 });
    assert.equal(await f.getAttribute("#c-play", "aria-label"), "Replay from the start");
    await f.click("#c-play");
    await f.waitForFunction((e) => window.__schedplayEmbed.playing && window.__schedplayEmbed.t < e, end, { timeout: 5000, polling: 50 });

    // Keyboard: Tab reaches the controls with a visible focus ring.
    await f.focus("#c-play");
    await f.press("#c-play", "Space"); // the button: pause
    assert.equal((await st()).playing, false);
    await page.keyboard.press("Tab");
    const ring = await f.evaluate(() => {
      const a = document.activeElement;
      const cs = getComputedStyle(a);
      return { id: a.id, outline: cs.outlineStyle, width: cs.outlineWidth };
    });
    assert.equal(ring.id, "c-fwd");
    assert.notEqual(ring.outline, "none", JSON.stringify(ring));
    await page.keyboard.press("Home");
    assert.equal((await st()).cursor, -1);
    await page.keyboard.press(".");
    await page.keyboard.press(".");
    assert.equal((await st()).cursor, 1);
    await page.keyboard.press(",");
    assert.equal((await st()).cursor, 0);
    await f.focus("#c-scrub");
    await page.keyboard.press("ArrowRight");
    assert.equal((await st()).cursor, 1, "arrows on the scrubber step by event");
    await page.keyboard.press("k");
    assert.equal((await st()).playing, true);
    await page.keyboard.press("k");
    assert.equal((await st()).playing, false);
    await page.keyboard.press("End");
    assert.equal(await f.getAttribute("#c-play", "aria-label"), "Replay from the start");
    assert.equal(Number(await f.inputValue("#c-scrub")), (await st()).t, "the thumb follows the keys");
    await page.keyboard.press("]");
    assert.equal(await f.inputValue("#c-speed"), "2");
    await shot(page, "41-embed-controls-400x300.png");
    // On the canvas (the stage's own frame) the reader is still in the
    // embed; back on the host page the caption is quiet again.
    await f.click("#shield");
    await f.locator(".stage-box iframe").click({ position: { x: 5, y: 5 } });
    await stepAside();
    assert.equal(await live(), "polite", "focus on the canvas");
    await page.click("h1");
    await stepAside();
    assert.equal(await live(), "off", "back on the host page");
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  test("theme=auto follows the reader's dark preference", async () => {
    for (const scheme of ["dark", "light"]) {
      const context = await browser.newContext({ viewport: { width: 900, height: 600 }, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(host + "/one?w=800&h=500");
      const f = embedFrame(page);
      await drawn(f);
      assert.equal((await embedState(f)).theme, scheme);
      const bg = await f.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, scheme === "dark" ? "rgb(17, 21, 28)" : "rgb(244, 246, 250)");
      // The canvas follows: its top-left pixel is the theme's background.
      await page.waitForTimeout(800);
      for (const [w, h] of [[800, 500], [400, 300]]) {
        if (w === 400) {
          await page.goto(host + "/one?w=400&h=300");
          await drawn(embedFrame(page));
          await page.waitForTimeout(800);
        }
        await shot(page, `42-embed-${w}x${h}-${scheme}.png`);
      }
      await context.close();
    }
    // An explicit theme wins over the preference.
    const context = await browser.newContext({ colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(host + "/one?theme=light");
    await embedFrame(page).waitForFunction(() => window.__schedplayEmbed !== undefined);
    assert.equal((await embedState(embedFrame(page))).theme, "light");
    await context.close();
  });

  test("one script tag turns marked elements into embeds as they come into view", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    const log = consoleLog(page);
    await page.goto(host + "/authoring");
    await page.waitForFunction(() => document.querySelectorAll("iframe.schedplay-frame").length === 1, null, { timeout: 10000 });
    assert.equal(await page.locator("pre.schedplay").count(), 1, "the block far below waits");
    const first = await waitEmbedFrame(page, 0);
    await drawn(first);
    assert.match(await page.getAttribute("iframe", "title"), /Preemption/);
    // Auto-height: the frame takes the height the embed asks for.
    await page.waitForFunction(() => window.got !== undefined && parseInt(document.querySelector("iframe").style.height) > 300, null, { timeout: 5000 });
    const h = await page.evaluate(() => parseInt(document.querySelector("iframe").style.height));
    const need = await first.evaluate(() => Math.ceil(document.getElementById("embed").getBoundingClientRect().height));
    assert.ok(Math.abs(h - need) <= 1, `frame ${h}px, embed needs ${need}px`);

    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => document.querySelectorAll("iframe.schedplay-frame").length === 2, null, { timeout: 10000 });
    const second = await waitEmbedFrame(page, 1);
    await drawn(second);
    const st = await embedState(second);
    assert.equal(st.lastReply.ok, true);
    assert.equal(st.lastReply.summary.nodes, 3);
    await second.waitForFunction(() => window.__schedplayEmbed.t > 0, null, { timeout: 20000, polling: 50 });
    assert.deepEqual(loud(log), []);
    await context.close();
  });

  // data-lang on the element: the embed's captions and its link to the full
  // playground in that language (the words from web/locales/lessons).
  test("data-lang gives an embed its language", async () => {
    for (const lang of ["zh-CN", "id"]) {
      const cat = JSON.parse(readFileSync(join(web, "locales", "lessons", `${lang}.json`), "utf8"));
      // The embed's own words: the small catalog it bundles.
      const small = JSON.parse(readFileSync(join(web, "locales", "embed", `${lang}.json`), "utf8"));
      const context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: "en-US", serviceWorkers: "block" });
      const page = await context.newPage();
      const requests = [];
      page.on("request", (r) => requests.push(new URL(r.url()).pathname.split("/").pop()));
      await page.goto(`${host}/lang?lang=${lang}`);
      const f = await waitEmbedFrame(page, 0);
      await drawn(f);
      assert.equal(new URL(f.url()).searchParams.get("lang"), lang);
      assert.equal(await f.evaluate(() => document.documentElement.lang), lang);
      await f.evaluate(() => document.getElementById("c-fwd").click());
      await f.waitForFunction(() => window.__schedplayEmbed.caption !== "", null, { timeout: 20000, polling: 50 });
      const captions = Object.entries(cat).filter(([k]) => k.startsWith("preemption-basic.caption.")).map(([, v]) => v);
      assert.ok(captions.includes(await f.locator("#embed-caption").textContent()), "the caption is the lesson's, translated");
      assert.equal(new URL(await f.locator("#open-full").getAttribute("href")).searchParams.get("lang"), lang);
      assert.equal(await f.getAttribute("#controls", "aria-label"), small["embed.playback"]);
      for (const [id, key] of [["c-back", "tl.back"], ["c-fwd", "tl.fwd"], ["c-scrub", "tl.scrub"], ["c-speed", "embed.speed"], ["open-full", "embed.open"]]) {
        assert.equal(await f.getAttribute(`#${id}`, "aria-label"), small[key], `#${id}`);
      }
      assert.ok([small["tl.play"], small["tl.pause"], small["embed.replay"]].includes(await f.getAttribute("#c-play", "aria-label")));
      const [at, of] = small["embed.position"].split(/\{\w+\}/).slice(1, 3);
      const valuetext = await f.getAttribute("#c-scrub", "aria-valuetext");
      assert.ok(valuetext.includes(at) && valuetext.includes(of), valuetext);
      assert.equal(await f.locator("summary").textContent(), small["embed.yaml"]);
      await shot(page, `embed-lang-${lang}.png`);
      // The captions of the reader's language alone, in one small file.
      const fetched = requests.filter((n) => n.startsWith("captions-"));
      assert.equal(fetched.length, 1, `captions fetched: ${fetched}`);
      assert.match(fetched[0], new RegExp(`^captions-${lang}\\.\\w+\\.json$`));
      console.log(`# ${lang} embed requests: ${requests.join(" ")}`);
      await context.close();
    }
  });

  // An English reader fetches no captions; when the reader's captions
  // cannot be fetched the lesson's own English shows, and nothing is said
  // in the host's console.
  test("captions: none fetched in English, the English when the fetch fails", async () => {
    for (const lang of ["en", "zh-CN"]) {
      const context = await browser.newContext({ viewport: { width: 900, height: 700 }, locale: "en-US", serviceWorkers: "block" });
      const page = await context.newPage();
      const log = consoleLog(page);
      const requests = [];
      page.on("request", (r) => requests.push(new URL(r.url()).pathname.split("/").pop()));
      await context.route(/\/captions-[^/]*\.json$/, (r) => r.abort());
      await page.goto(`${host}/lang?lang=${lang}`);
      const f = await waitEmbedFrame(page, 0);
      await drawn(f);
      await f.evaluate(() => document.getElementById("c-fwd").click());
      await f.waitForFunction(() => window.__schedplayEmbed.caption !== "", null, { timeout: 20000, polling: 50 });
      const english = Object.entries(JSON.parse(readFileSync(join(web, "locales", "lessons", "en.json"), "utf8")))
        .filter(([k]) => k.startsWith("preemption-basic.caption.")).map(([, v]) => v);
      const caption = await f.locator("#embed-caption").textContent();
      assert.ok(english.includes(caption), `${lang}: the caption is the lesson's English: ${caption}`);
      assert.deepEqual(requests.filter((n) => n.startsWith("captions-")), lang === "en" ? [] : [requests.find((n) => n.startsWith("captions-zh-CN."))]);
      // Only the browser's own lines about the failed request and the
      // service worker this test keeps out (it would fetch every file).
      assert.deepEqual(loud(log).filter((m) => !/captions-|Service Worker registration blocked by Playwright/.test(m.text + m.where)), []);
      await context.close();
    }
  });

  test("bytes for one and three embeds, first frame cold and on a second visit, offline reload", async () => {
    // Bytes on the wire, counted from the responses (headers and encoded
    // bodies), for a page with one and with three embeds, each in a fresh
    // profile without the service worker (its own download is counted below).
    async function pageBytes(n) {
      const context = await browser.newContext({ serviceWorkers: "block" });
      const page = await context.newPage();
      const sizes = [];
      page.on("requestfinished", async (r) => {
        const s = await r.sizes();
        sizes.push(s.responseBodySize + s.responseHeadersSize);
      });
      await page.goto(`${host}/many?n=${n}`);
      for (let i = 0; i < n; i++) await drawn(embedFrame(page, i));
      await page.waitForTimeout(500);
      await context.close();
      return sizes.reduce((a, b) => a + b, 0);
    }
    const one = await pageBytes(1), three = await pageBytes(3);
    console.log(`# bytes: one embed ${one}, three embeds ${three} (${(three / one).toFixed(3)}x)`);
    assert.ok(three <= 1.2 * one, `three embeds ${three} bytes, one ${one}`);
    assert.ok(one <= 4e6, `one embed downloads ${one} bytes`);

    // First frame, cold (a fresh profile) and on a second visit; then offline.
    const context = await browser.newContext({ viewport: { width: 900, height: 600 } });
    const page = await context.newPage();
    const firstFrame = async () => {
      const t0 = Date.now();
      await page.goto(`${url}embed.html?example=preemption-basic&load=eager`);
      await drawn(page.mainFrame());
      return Date.now() - t0;
    };
    const cold = await firstFrame();
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(async () => {
      const keys = await caches.keys();
      if (keys.length !== 1) return false;
      const c = await caches.open(keys[0]);
      return (await c.keys()).some((r) => r.url.endsWith(".wasm"));
    }, null, { timeout: 60000, polling: 200 });
    const second = await firstFrame();
    console.log(`# first frame: cold ${cold} ms, second visit ${second} ms`);
    assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), "the second visit is served by the worker");

    await context.setOffline(true);
    await page.reload();
    await drawn(page.mainFrame());
    assert.match(await page.textContent("#ph-title"), /Preemption/);
    await assert.rejects(page.evaluate(() => fetch("manifest.json").then((r) => r.status)), "the network is off");
    await context.close();
  });
});
