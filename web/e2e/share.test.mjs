// End-to-end tests of permalinks, drafts, the embed page and its
// postMessage API, and the gallery, in headless Chromium.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { editorText, idbDraft, launch, shots, url } from "./helpers.mjs";
import { loadTS, web } from "../unit/load.mjs";

const examplesDir = join(web, "..", "examples");
const basic = readFileSync(join(examplesDir, "preemption-basic.yaml"), "utf8");
const DRAFT = "# my unsaved draft\napiVersion: v1\nkind: Node\nmetadata: {name: draft-node}\nstatus:\n  allocatable: {cpu: \"2\", memory: 4Gi, pods: \"10\"}\n";

// openLoaded opens an address of the playground and waits for a load.
async function openLoaded(context, address, { drawn = true } = {}) {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(address);
  await page.waitForFunction((d) => window.__schedplay?.loads >= 1 && (!d || window.__schedplay.drawnGen >= 1), drawn, { timeout: 90000, polling: 50 });
  return page;
}

// seedDraft leaves a draft in the playground's storage, as an earlier visit would.
async function seedDraft(context, text) {
  const page = await context.newPage();
  await page.goto(url + "stage.css"); // any page of the origin
  // As a page from before IndexedDB drafts left it: the page moves it over.
  await page.evaluate(async (t) => {
    await new Promise((resolve) => { const r = indexedDB.deleteDatabase("schedplay"); r.onsuccess = r.onerror = r.onblocked = resolve; });
    localStorage.setItem("schedplay.draft", t);
    localStorage.removeItem("schedplay.draft.previous");
  }, text);
  await page.close();
}

describe("permalinks and drafts", () => {
  let browser, context, P;
  before(async () => {
    P = await loadTS("permalink.ts");
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  });
  after(async () => browser?.close());

  test("a link opens its scenario and view; the draft it replaced can be restored", async () => {
    await seedDraft(context, DRAFT);
    const frag = P.encode({ yaml: basic, seed: 0, engine: "v1.36", view: { pod: "default/critical" } });
    const page = await openLoaded(context, url + "#" + frag);
    assert.equal(await editorText(page), basic, "the editor shows the link's scenario");
    const address = P.decode(await page.evaluate(() => location.hash));
    assert.ok(address.ok && address.link.yaml === basic, "the address bar holds a link to the scenario shown");
    await page.waitForSelector("#details:not([hidden])");
    assert.equal(await page.textContent("#details h2"), "critical", "the link's selected pod is shown");
    assert.match(await page.textContent("#share-banner"), /Opened a shared scenario\. Your previous draft is kept\./);
    await page.screenshot({ path: join(shots, "10-link-opened.png") });
    await page.click("#share-restore");
    await page.waitForFunction((d) => document.querySelector(".cm-content")?.textContent.includes("# my unsaved draft"), DRAFT);
    assert.ok((await editorText(page)).startsWith("# my unsaved draft"));
    // The link's text is kept in turn.
    await page.waitForFunction(() => document.querySelector("#draft-state")?.dataset.state === "saved");
    const kept = JSON.parse(await idbDraft(page, "schedplay.draft.previous")).text;
    assert.equal(kept, basic);
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("a link's time and speed are restored, and Copy link captures the current ones", async () => {
    await seedDraft(context, basic);
    const frag = P.encode({ yaml: basic, seed: 0, engine: "v1.36", view: { pod: "default/critical", t: 20, speed: 4 } });
    const page = await openLoaded(context, url + "#" + frag);
    // The time is shown once the run has reached it (the victim still terminating).
    await page.waitForFunction(() => window.__schedplay.simDone && window.__schedplay.now === 20, null, { timeout: 20000, polling: 50 });
    assert.match(await page.textContent("#tl-time"), /^t=20s · event \d+\/\d+$/);
    assert.equal(await page.inputValue("#tl-speed"), "4");
    assert.equal(await page.getAttribute("#tl-play", "aria-label"), "Play", "a link with a time opens paused there");
    await page.waitForSelector("#details:not([hidden])");
    assert.equal(await page.textContent("#details h2"), "critical");
    await page.screenshot({ path: join(shots, "13-link-time-speed.png") });

    // Move on and change the speed; the copied link holds both.
    await page.click("#tl-fwd");
    await page.selectOption("#tl-speed", "0.5");
    const now = await page.evaluate(() => window.__schedplay.now);
    assert.ok(now > 20, `stepping forward from t=20 gave ${now}`);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
    await page.evaluate(() => { window.__schedplayShare.lastLink = ""; });
    await page.click("#copy-link");
    await page.waitForFunction(() => window.__schedplayShare.lastLink !== "");
    const link = await page.evaluate(() => window.__schedplayShare.lastLink);
    const d = P.decode(new URL(link).hash);
    assert.ok(d.ok, JSON.stringify(d));
    const cursor = await page.evaluate(() => window.__schedplay.cursor);
    assert.deepEqual(d.link.view, { pod: "default/critical", t: now, speed: 0.5, event: cursor });
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  // A link pasted into the address bar while the page is about to write
  // its own address (a paused playhead, debounced): the pasted link is
  // what opens, even when the page's write lands before the hashchange
  // event is handled (done here in the same task, the race at its worst).
  test("a link pasted into the address bar opens even as the page writes its address", async () => {
    const page = await openLoaded(context, url);
    const own = P.encode({ yaml: basic, seed: 0, engine: "v1.36", view: {} });
    await page.evaluate((h) => {
      location.hash = "#v1.zzzzzzzzzzzz";
      history.replaceState(null, "", location.pathname + location.search + "#" + h);
    }, own);
    await page.waitForFunction(() => window.__schedplayShare.opened === "damaged-link", null, { timeout: 10000 })
      .catch(async () => assert.fail(`opened ${await page.evaluate(() => window.__schedplayShare.opened)}, want the pasted damaged link`));
    assert.match(await page.textContent("#share-banner"), /Could not open the link\. This link is damaged/);
    await page.close();
  });

  test("a truncated link shows the error and the recovered text, and keeps the draft", async () => {
    await seedDraft(context, DRAFT);
    const frag = P.encode({ yaml: basic, seed: 0, engine: "v1.36", view: {} });
    // The recovered text ends mid-document, so it may not load: wait for the attempt only.
    const page = await openLoaded(context, url + "#" + frag.slice(0, Math.floor(frag.length * 0.7)), { drawn: false });
    const banner = await page.textContent("#share-banner");
    assert.match(banner, /Could not open the link\. This link is damaged: it was probably cut short/);
    assert.match(banner, /The editor shows the \d+ characters that could be read\. Your previous draft is kept\./);
    assert.equal(await page.getAttribute("#share-banner", "role"), "alert");
    const shown = await editorText(page);
    assert.ok(shown.length > 200 && basic.startsWith(shown), "the editor holds a prefix of the scenario");
    await page.waitForFunction(() => document.querySelector("#draft-state")?.dataset.state === "saved");
    const kept = JSON.parse(await idbDraft(page, "schedplay.draft.previous")).text;
    assert.equal(kept, DRAFT, "the draft is kept");
    await page.screenshot({ path: join(shots, "11-truncated-link.png") });
    await page.click("#share-restore");
    await page.waitForFunction(() => document.querySelector(".cm-content")?.textContent.includes("# my unsaved draft"));
    await page.close();
  });

  test("Copy link makes a link that reopens the same text; a huge scenario offers a download", async () => {
    await seedDraft(context, DRAFT);
    const page = await openLoaded(context, url);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
    await page.click("#copy-link");
    await page.waitForFunction(() => window.__schedplayShare.lastLink !== "");
    const link = await page.evaluate(() => window.__schedplayShare.lastLink);
    assert.ok(link.startsWith(url + "#v1."), link);
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await page.screenshot({ path: join(shots, "12-copy-link.png") });
    const again = await openLoaded(context, link);
    assert.equal(await editorText(again), DRAFT);
    await again.close();

    // Too large: random names defeat compression.
    let big = DRAFT;
    for (let i = 0; i < 400; i++) big += `# ${Math.random().toString(36).slice(2)}\n`;
    await page.click(".cm-content");
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(big);
    await page.click("#copy-link");
    await page.waitForSelector("#share-download");
    assert.match(await page.textContent("#share-banner"), /too large for a link\..*chat apps cut links at 2000/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#share-download")]);
    assert.equal(download.suggestedFilename(), "scenario.yaml");
    await page.close();
  });
});

// A host page on another origin (a second port of 127.0.0.1) that embeds
// the playground and records the messages it gets.
function hostServer(body) {
  const server = createServer((req, res) => {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(body(req));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const hostPage = (embeds, height = 2600) => `<!doctype html><html><body style="margin:0;font:14px system-ui">
<h1>Host documentation page</h1>
<input id="host-input" placeholder="type here">
${embeds}
<div style="height:${height}px"></div>
<script>
window.got = [];
addEventListener("message", (e) => { if (e.data && e.data.schedplay === 1) window.got.push({ origin: e.origin, ...e.data }); });
window.send = (i, msg) => document.querySelectorAll("iframe")[i].contentWindow.postMessage({ schedplay: 1, ...msg }, "*");
</script></body></html>`;

describe("embed", () => {
  let browser, context, server, host;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    server = await hostServer((req) => {
      const embedURL = (params) => `${url}embed.html?${params}`;
      if (req.url.startsWith("/many")) {
        return hostPage([0, 1, 2, 3].map((i) => `<iframe src="${embedURL(`example=preemption-basic&load=visible`)}" style="display:block;width:700px;height:420px;margin-bottom:900px;border:0"></iframe>`).join("\n"), 0);
      }
      const allow = req.url.startsWith("/stranger") ? "https://not-us.example" : `http://${req.headers.host}`;
      return hostPage(`<iframe src="${embedURL(`origins=${encodeURIComponent(allow)}&load=click&editor=collapsed&theme=dark`)}" style="display:block;width:800px;height:460px;border:0"></iframe>`);
    });
    host = `http://127.0.0.1:${server.address().port}`;
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });

  test("a host page drives the embed through postMessage and keeps its focus and scroll", async () => {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(host + "/");
    await page.focus("#host-input");
    await page.keyboard.type("abc");
    const embed = page.frames().find((f) => f.url().includes("embed.html"));
    await embed.waitForFunction(() => window.__schedplayEmbed !== undefined);
    assert.equal(await embed.evaluate(() => window.__schedplayEmbed.activated), false, "load=click waits for a click");
    await page.screenshot({ path: join(shots, "20-embed-placeholder.png") });

    await page.evaluate((yaml) => window.send(0, { type: "load", yaml }), basic);
    await page.waitForFunction(() => window.got.some((m) => m.type === "loaded"), null, { timeout: 90000, polling: 50 });
    const loaded = await page.evaluate(() => window.got.find((m) => m.type === "loaded"));
    assert.equal(loaded.ok, true);
    assert.equal(loaded.origin, new URL(url).origin);
    assert.ok(loaded.summary.nodes >= 3, JSON.stringify(loaded.summary));
    assert.ok(await page.evaluate(() => window.got.some((m) => m.type === "ready")));
    await embed.waitForFunction(() => window.__schedplayEmbed.drawnGen >= 1, null, { timeout: 30000, polling: 50 });

    // Playback through postMessage: the same player as the playground's timeline.
    const shownTime = () => embed.textContent("#embed-time");
    const lastOf = (type) => page.evaluate((t) => window.got.filter((m) => m.type === t).pop(), type);
    assert.equal(await shownTime(), "t=0s");
    await page.evaluate(() => window.send(0, { type: "play" }));
    await page.waitForFunction(() => window.got.some((m) => m.type === "state" && m.playing), null, { polling: 50 });
    // The time moves on its own, and the host hears it.
    await page.waitForFunction(() => window.got.some((m) => m.type === "time" && m.t > 1), null, { timeout: 15000, polling: 50 });
    assert.notEqual(await shownTime(), "t=0s", "playing moved the shown time");
    await page.evaluate(() => window.send(0, { type: "seek", t: 5 }));
    await embed.waitForFunction(() => document.querySelector("#embed-time").textContent === "t=5s", null, { timeout: 10000, polling: 50 });
    assert.deepEqual(await embed.evaluate(() => [window.__schedplayEmbed.t, window.__schedplayEmbed.playing]), [5, false], "seek shows t=5 and pauses");
    const seekState = await lastOf("state");
    assert.equal(seekState.t, 5);
    await page.evaluate(() => window.send(0, { type: "play" }));
    await embed.waitForFunction(() => window.__schedplayEmbed.t > 6, null, { timeout: 15000, polling: 50 });
    await page.evaluate(() => window.send(0, { type: "pause" }));
    await page.waitForFunction(() => window.got.filter((m) => m.type === "state").pop()?.playing === false, null, { polling: 50 });
    const paused = [await embed.evaluate(() => window.__schedplayEmbed.t), await shownTime()];
    await page.waitForTimeout(600);
    assert.deepEqual([await embed.evaluate(() => window.__schedplayEmbed.t), await shownTime()], paused, "pause holds the time");
    assert.notEqual(paused[1], "t=5s");
    await page.evaluate(() => window.send(0, { type: "seek", t: -1 }));
    await page.waitForFunction(() => window.got.some((m) => m.type === "error" && /seek needs t/.test(m.message)), null, { polling: 50 });

    await page.waitForTimeout(500);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "host-input", "the embed took the focus");
    await page.keyboard.type("def");
    assert.equal(await page.inputValue("#host-input"), "abcdef");
    await page.screenshot({ path: join(shots, "21-embed-loaded.png") });

    // The wheel over the canvas scrolls the host page.
    const box = await page.locator("iframe").boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 400);
    await page.waitForFunction(() => scrollY > 100, null, { timeout: 5000, polling: 50 });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("messages from an origin not on the allowlist are ignored and get no answer", async () => {
    const page = await context.newPage();
    await page.goto(host + "/stranger");
    const embed = page.frames().find((f) => f.url().includes("embed.html"));
    await embed.waitForFunction(() => window.__schedplayEmbed !== undefined);
    await page.evaluate((yaml) => window.send(0, { type: "load", yaml }), basic);
    await page.evaluate(() => window.send(0, { type: "getState" }));
    await page.waitForTimeout(800);
    const st = await embed.evaluate(() => ({ ...window.__schedplayEmbed }));
    assert.equal(st.received, 0);
    assert.equal(st.activated, false);
    assert.deepEqual(await page.evaluate(() => window.got), []);
    await page.close();
  });

  test("several embeds on a page load only when scrolled into view", async () => {
    const page = await context.newPage();
    await page.goto(host + "/many");
    const embeds = () => page.frames().filter((f) => f.url().includes("embed.html"));
    await page.waitForFunction(() => document.querySelectorAll("iframe").length === 4);
    for (const f of embeds()) await f.waitForFunction(() => window.__schedplayEmbed !== undefined);
    await page.waitForTimeout(500);
    const active = async () => Promise.all(embeds().map((f) => f.evaluate(() => window.__schedplayEmbed.activated)));
    assert.deepEqual(await active(), [true, false, false, false]);
    await page.screenshot({ path: join(shots, "22-embeds-lazy.png") });
    await page.evaluate(() => document.querySelectorAll("iframe")[2].scrollIntoView());
    await page.waitForTimeout(800);
    const now = await active();
    assert.equal(now[2], true, JSON.stringify(now));
    assert.equal(now[3], false, JSON.stringify(now));
    await page.close();
  });
});

describe("gallery", () => {
  let browser, context;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  });
  after(async () => browser?.close());

  test("lists every example and opens one in the playground", async () => {
    const page = await context.newPage();
    await page.goto(url + "gallery.html");
    const n = readdirSync(examplesDir).filter((f) => f.endsWith(".yaml")).length;
    await page.waitForFunction((k) => document.querySelectorAll(".card").length === k, n, { timeout: 10000 });
    const card = page.locator('.card[data-file="preemption-basic.yaml"]');
    assert.match(await card.textContent(), /Preemption, the basic case/);
    await page.screenshot({ path: join(shots, "30-gallery.png"), fullPage: true });
    await card.click();
    await page.waitForFunction(() => window.__schedplay?.loads >= 1, null, { timeout: 30000, polling: 50 });
    assert.equal(await editorText(page), basic);
    await page.close();
  });
});
