// Measures an embed in headless Chromium: the time from navigation to its
// first drawn scene, cold (a fresh profile), on a second visit (the service
// worker's copy) and on a reload with the HTTP cache only (no worker), and
// the bytes the page downloads (the worker's own fetches, its copy of the
// rest of the site, are not seen from the page). Not a test: figures vary by machine.
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/embed.mjs [runs]
import { launch, url } from "../e2e/helpers.mjs";

const runs = Number(process.argv[2] ?? 3);
const page = `${url}embed.html?example=preemption-basic&load=eager`;
const browser = await launch();
// ms from navigation start to the first scene drawn.
async function firstFrame(p) {
  await p.goto(page);
  await p.waitForFunction(() => window.__schedplayEmbed?.drawnGen >= 1, null, { timeout: 120000, polling: 20 });
  return p.evaluate(() => Math.round(performance.now()));
}
for (let i = 0; i < runs; i++) {
  const withWorker = await browser.newContext();
  const p = await withWorker.newPage();
  let bytes = 0;
  p.on("requestfinished", async (r) => {
    const s = await r.sizes();
    bytes += s.responseBodySize + s.responseHeadersSize;
  });
  const cold = await firstFrame(p);
  const coldBytes = bytes;
  await p.evaluate(() => navigator.serviceWorker.ready);
  await p.waitForFunction(async () => (await caches.keys()).length === 1 &&
    (await (await caches.open((await caches.keys())[0])).keys()).some((r) => r.url.endsWith(".wasm")), null, { timeout: 120000, polling: 200 });
  const second = await firstFrame(p);
  await withWorker.close();

  const httpOnly = await browser.newContext({ serviceWorkers: "block" });
  const q = await httpOnly.newPage();
  await firstFrame(q);
  const reload = await firstFrame(q);
  await httpOnly.close();
  console.log(`run ${i + 1}: first frame cold ${cold} ms, second visit (worker) ${second} ms, reload (HTTP cache) ${reload} ms; ` +
    `bytes: embed ${coldBytes}`);
}
await browser.close();
