// End-to-end tests of the embed in a small frame: following the action
// frames the event's objects with names readable at 400x300 (the size the
// canvas draws them at, read through the stage's bridge), and the whole
// cluster is one click away.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { launch, shots, url } from "./helpers.mjs";

const frameOf = (page, part) => page.frames().find((f) => f.url().includes(part));
async function waitFrame(page, part) {
  for (let k = 0; k < 400; k++) {
    const f = frameOf(page, part);
    if (f) return f;
    await page.waitForTimeout(50);
  }
  throw new Error(`no ${part} frame`);
}

// hostPage puts one embed of w×h between two links on a page of its own.
const hostPage = (params, w = 400, h = 300) => `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;font:14px system-ui">
<a id="before" href="#b">before the embed</a>
<iframe src="${url}embed.html?${params}" style="display:block;width:${w}px;height:${h}px;border:0"></iframe>
<a id="after" href="#a">after the embed</a></body></html>`;

describe("embed in a small frame", () => {
  let browser, server, host;
  before(async () => {
    browser = await launch();
    // The host page is served from another port: another origin.
    server = createServer((req, res) => {
      const u = new URL(req.url, "http://x");
      if (u.pathname !== "/") return res.writeHead(404).end();
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.end(hostPage(u.searchParams.get("p"), Number(u.searchParams.get("w")), Number(u.searchParams.get("h"))));
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    host = `http://127.0.0.1:${server.address().port}/`;
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  const goHost = (page, params, w = 400, h = 300) =>
    page.goto(`${host}?p=${encodeURIComponent(params)}&w=${w}&h=${h}`);

  for (const [w, h, theme] of [[400, 300, "light"], [400, 300, "dark"], [800, 500, "light"], [800, 500, "dark"]]) {
    test(`following the action draws names at 11 CSS px or more (${w}x${h}, ${theme})`, async () => {
      const context = await browser.newContext({ viewport: { width: w + 80, height: h + 60 } });
      const page = await context.newPage();
      await goHost(page, `example=preemption-basic&load=eager&theme=${theme}`, w, h);
      const embed = await waitFrame(page, "embed.html");
      await embed.waitForFunction(() => window.__schedplayEmbed?.drawnGen >= 1 && window.__schedplayEmbed.simDone, null, { timeout: 120000, polling: 50 });
      const stage = await waitFrame(page, "stage.html");
      const events = await stage.evaluate(() => JSON.parse(window.schedplay.trace("0")).events);
      const nominated = events.find((e) => e.kind === "Nominated");
      assert.ok(nominated, "the lesson nominates a node");
      // Step to the nomination with the embed's own button.
      while ((await embed.evaluate(() => window.__schedplayEmbed.cursor)) < nominated.seq) await embed.click("#c-fwd");
      await page.waitForTimeout(300); // the frame after the seek
      const canvas = await stage.evaluate(() => ({ w: innerWidth, h: innerHeight }));
      const locate = (kind, key) => stage.evaluate(([k, n]) => JSON.parse(window.schedplay.locate(k, n)), [kind, key]);
      const node = await locate("node", nominated.node);
      const pod = await locate("pod", nominated.victims[0]);
      for (const [what, r] of [["node " + nominated.node, node], ["victim " + nominated.victims[0], pod]]) {
        assert.ok(r.ok, `${what} is drawn`);
        assert.ok(r.labelPx >= 11, `${what}'s name is ${r.labelPx} CSS px`);
        assert.ok(r.x >= 0 && r.x + r.w <= canvas.w + 0.5, `${what} lies across the canvas: ${JSON.stringify(r)} in ${JSON.stringify(canvas)}`);
      }
      await page.screenshot({ path: join(shots, `embed-follow-${w}x${h}-${theme}.png`), clip: await page.locator("iframe").boundingBox() });

      // One click: the whole cluster.
      await embed.click("#c-follow");
      assert.equal(await embed.getAttribute("#c-follow", "aria-pressed"), "false");
      await page.waitForTimeout(300);
      const whole = await locate("node", nominated.node);
      assert.ok(whole.labelPx <= node.labelPx, `the whole cluster is not magnified over the followed view (${whole.labelPx} > ${node.labelPx})`);
      for (const n of ["node-a", "node-b", "node-c"]) {
        const r = await locate("node", n);
        assert.ok(r.ok && r.x >= -0.5 && r.x + r.w <= canvas.w + 0.5 && r.y >= -0.5 && r.y + r.h <= canvas.h + 0.5, `${n} on screen in the whole view: ${JSON.stringify(r)}`);
      }
      await page.screenshot({ path: join(shots, `embed-whole-${w}x${h}-${theme}.png`), clip: await page.locator("iframe").boundingBox() });
      await context.close();
    });
  }

  test("Tab walks through the embed's controls and leaves it", async () => {
    const context = await browser.newContext({ viewport: { width: 480, height: 360 } });
    const page = await context.newPage();
    await goHost(page, "example=preemption-basic&load=eager");
    const embed = await waitFrame(page, "embed.html");
    await embed.waitForFunction(() => window.__schedplayEmbed?.drawnGen >= 1, null, { timeout: 120000, polling: 50 });
    await page.focus("#before");
    // The embed is another origin to this page: its focus is read inside it.
    const where = async () => {
      const top = await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
      if (top !== "IFRAME") return top;
      return "embed>" + await embed.evaluate(() => {
        const a = document.activeElement;
        return a?.tagName === "IFRAME" ? "stage" : a?.id || a?.tagName;
      });
    };
    const seen = [];
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Tab");
      const w = await where();
      seen.push(w);
      if (w === "after") break;
    }
    assert.equal(seen.at(-1), "after", `Tab never left the embed: ${seen.join(" → ")}`);
    const inEmbed = seen.filter((w) => w.startsWith("embed")).length;
    assert.ok(inEmbed >= 5 && inEmbed <= 14, `Tab stops inside the embed: ${seen.join(" → ")}`);
    // Shift+Tab walks back out the other side.
    const back = [];
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press("Shift+Tab");
      const w = await where();
      back.push(w);
      if (w === "before") break;
    }
    assert.equal(back.at(-1), "before", `Shift+Tab never left the embed: ${back.join(" → ")}`);
    await context.close();
  });
});
