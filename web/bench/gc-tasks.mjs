// Go's collections beside the long tasks of large loads and edits: the
// engine runs with GODEBUG=gctrace=1 (its lines reach the console) while
// the page loads 1 MB of YAML a few times and then edits one pod of 500
// nodes / 5,000 pods a few times. Each round prints its first frame, end
// state and longest task with the collections that ran in it, to tell
// the rounds a cycle landed in from the rest (in js/wasm a cycle's mark
// runs to its end in one task: docs/performance-web.md). Not a test.
//   SCHEDPLAY_URL=http://127.0.0.1:8080/ node bench/gc-tasks.mjs [rounds]
import { launch, longestTask, url, watchLongTasks } from "../e2e/helpers.mjs";
import { cluster, megabyte, selectCpuRequest } from "./scenarios.mjs";

const rounds = Number(process.argv[2] ?? 3);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1400, height: 850 } });
// wasm_exec.js defines globalThis.Go; the stage's runtime then starts
// with the environment the constructor leaves in go.env.
await context.addInitScript(() => {
  let Go;
  Object.defineProperty(globalThis, "Go", {
    configurable: true,
    get: () => Go,
    set(C) {
      Go = class extends C {
        constructor() {
          super();
          this.env = { ...this.env, GODEBUG: "gctrace=1" };
        }
      };
    },
  });
});
const page = await context.newPage();
let cycles = [];
page.on("console", (m) => {
  const line = m.text();
  if (line.startsWith("gc ")) cycles.push(line.replace(/, \d+ MB stacks.*$/, ""));
});
await page.goto(url);
await page.waitForFunction(() => window.__schedplay?.loadedGen >= 1 && window.__schedplay.drawnGen >= window.__schedplay.loadedGen, null, { timeout: 90000, polling: 50 });

const settle = () => page.waitForFunction(() => window.__schedplay.editToFrameMs > 0 && window.__schedplay.simDone, null, { timeout: 180000, polling: 20 });
async function load(text) {
  await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
  await page.evaluate((t) => window.__schedplaySetText(t), text);
  await settle();
}
// report prints the round's figures and the collections since start.
async function report(label) {
  // Long tasks reach the observer after they end.
  await page.waitForTimeout(300);
  const f = await page.evaluate(() => ({ first: window.__schedplay.editMarks?.first ?? 0, end: window.__schedplay.editToFrameMs }));
  const t = await longestTask(page);
  console.log(`${label}: first frame ${Math.round(f.first)} ms, end state ${Math.round(f.end)} ms; longest task ${Math.round(t.max)} ms, ${t.n} long tasks; ${cycles.length} collections`);
  for (const c of cycles) console.log(`  ${c}`);
}
async function start() {
  cycles = [];
  await watchLongTasks(page);
}

const { text } = megabyte();
for (let i = 0; i < rounds; i++) {
  await load("# blank\n");
  await page.waitForTimeout(300);
  await start();
  await load(text.replaceAll("pod-", `g${i}-`));
  await report(`1 MB, round ${i + 1}`);
}
await load(cluster(500, 5000));
await page.waitForTimeout(500);
for (let i = 0; i < rounds; i++) {
  await start();
  await page.evaluate(() => { window.__schedplay.editToFrameMs = 0; });
  await selectCpuRequest(page);
  await page.keyboard.insertText(`${101 + i}m`);
  await settle();
  await report(`one pod's cpu request in 500 nodes / 5,000 pods, round ${i + 1}`);
}
await browser.close();
