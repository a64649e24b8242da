// Measures the playground in headless Chromium: download sizes and the time
// from navigation to the first frame showing the default scenario, cold (new
// browser context) and warm (reload). Not a test: figures vary by machine.
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/first-frame.mjs [runs]
import { gzipSync } from "node:zlib";
import { launch, open, url } from "../e2e/helpers.mjs";

const runs = Number(process.argv[2] ?? 3);
const wasm = Buffer.from(await (await fetch(new URL((await (await fetch(new URL("manifest.json", url))).json()).files["main.wasm"], url))).arrayBuffer());
console.log(`main.wasm: ${(wasm.length / 1e6).toFixed(2)} MB raw, ${(gzipSync(wasm, { level: 9 }).length / 1e6).toFixed(2)} MB gzip -9`);

const browser = await launch();
const firstFrame = (page) => page.evaluate(() => window.__schedplay.firstFrameMs);
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
  const page = await open(context);
  const cold = await firstFrame(page);
  await page.reload();
  await page.waitForFunction(() => window.__schedplay?.firstFrameMs > 0, null, { timeout: 30000, polling: 20 });
  console.log(`run ${i + 1}: first frame ${Math.round(cold)} ms cold, ${Math.round(await firstFrame(page))} ms on reload`);
  await context.close();
}
await browser.close();
