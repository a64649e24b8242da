// End-to-end tests of the editor: links that keep the moment, the address
// bar while editing, drafts that survive, diagnostics and completion.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { appendText, editorText, idbDraft, launch, probe, url } from "./helpers.mjs";
import { cluster } from "../bench/scenarios.mjs";
import { loadTS, web } from "../unit/load.mjs";

// Without its questions: a question holds playback before its event.
const basic = readFileSync(join(web, "..", "examples", "preemption-basic.yaml"), "utf8").replace(/\n  questions:\n(    .*\n|  - .*\n)*/, "\n");
export const shotsDir = "/work/notes/shots/editor";

// openAt opens an address and waits until its first scene is drawn.
async function openAt(context, address) {
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  await page.goto(address);
  await page.waitForFunction(() => window.__schedplay?.loads >= 1 && window.__schedplay.drawnGen >= 1, null, { timeout: 90000, polling: 50 });
  return page;
}

describe("links keep the moment", () => {
  let browser, context, P;
  before(async () => {
    P = await loadTS("permalink.ts");
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  });
  after(async () => browser?.close());

  test("a link copied at an event reopens on that event, paused", async () => {
    const page = await openAt(context, url);
    await page.evaluate((t) => window.__schedplaySetText(t), basic);
    await page.waitForFunction(() => window.__schedplay.simDone && !window.__schedplay.editPending, null, { polling: 50 });
    // Event 3 of the run, at t=0: the preemption of the report.
    await page.click("#tl-start");
    for (let i = 0; i < 3; i++) await page.click("#tl-fwd");
    const at = await probe(page);
    assert.equal(at.cursor, 2);
    await page.evaluate(() => { window.__schedplayShare.lastLink = ""; });
    await page.click("#copy-link");
    await page.waitForFunction(() => window.__schedplayShare.lastLink !== "");
    const link = await page.evaluate(() => window.__schedplayShare.lastLink);
    await page.close();

    const again = await openAt(context, link);
    await again.waitForFunction(() => window.__schedplay.cursor === 2, null, { timeout: 30000, polling: 50 });
    await again.waitForTimeout(1500); // it stays there: nothing plays on
    const p = await probe(again);
    assert.equal(p.cursor, 2, "the link's event is shown");
    assert.equal(p.now, at.now);
    assert.equal(await again.getAttribute("#tl-play", "aria-label"), "Play", "it opened paused");
    assert.match(await again.textContent("#tl-time"), / · event 3\/\d+$/);
    await again.screenshot({ path: join(shotsDir, "link-event-1280x720.png") });
    assert.deepEqual(again.errors, []);
    await again.close();
  });

  test("the address bar holds a link to the text after an edit", async () => {
    const page = await openAt(context, url);
    const before = await page.evaluate(() => location.href);
    await appendText(page, "\n# an edit\n");
    const text = await editorText(page);
    // The address follows within its debounce (a paused playhead's moves
    // may update it first): poll until it holds the edited text.
    let d = null, address = before;
    for (let i = 0; i < 100 && !(d?.ok && d.link.yaml === text); i++) {
      await page.waitForTimeout(100);
      address = await page.evaluate(() => location.href);
      d = new URL(address).hash ? P.decode(new URL(address).hash) : null;
    }
    assert.notEqual(address, before, "the address changed");
    assert.ok(d?.ok, d?.error ?? "no link in the address");
    assert.equal(d.link.yaml, text, "the address opens the text on screen");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

// bigDump is a kubectl-style dump of 3 nodes and enough pods to pass
// bytes: over the playground's 4 MiB limit.
function bigDump(bytes) {
  const parts = [];
  for (const n of ["node-a", "node-b", "node-c"]) {
    parts.push(`apiVersion: v1\nkind: Node\nmetadata:\n  name: ${n}\n  labels: {topology.kubernetes.io/zone: z1}\nstatus:\n  allocatable: {cpu: "8", memory: 32Gi, pods: "110"}\n`);
  }
  let size = parts.join("---\n").length;
  for (let i = 0; size < bytes; i++) {
    const p = `apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-${i}\n  namespace: default\n  labels: {app: web, tier: frontend}\nspec:\n  containers:\n  - name: app\n    image: registry.example/web:1.${i % 50}\n    resources:\n      requests: {cpu: 100m, memory: 128Mi}\n`;
    parts.push(p);
    size += p.length + 4;
  }
  return parts.join("---\n");
}

// paste hands text to the editor as a clipboard paste.
async function paste(page, text) {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", t);
    document.querySelector(".cm-content").dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

describe("nothing lost", () => {
  let browser, context;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  });
  after(async () => browser?.close());

  test("a 5 MB paste shows its nodes with the size message and survives a reload", async (t) => {
    const page = await openAt(context, url);
    const text = bigDump(5 << 20);
    const before = (await probe(page)).loads;
    const started = Date.now();
    await paste(page, text);
    await page.waitForFunction(() => /Reading \d+\.\d MB of YAML/.test(document.querySelector("#status").textContent), null, { polling: 20 });
    await page.waitForFunction((b) => {
      const p = window.__schedplay;
      return p.loads > b && p.lastReply?.partial && p.drawnGen >= p.loadedGen;
    }, before, { timeout: 60000, polling: 20 });
    const nodesMs = Date.now() - started;
    const p = await probe(page);
    assert.equal(p.lastReply.summary.nodes, 3);
    assert.match(await page.textContent("#status"), /^3 nodes · too large: nodes only$/);
    assert.match(await page.textContent("#budget"), /only the nodes are shown: the scenario is \d+ bytes, over the limit of 4194304 bytes/);
    assert.match(await page.textContent("#problems summary"), /^1 error$/);
    await page.waitForFunction(() => document.querySelector("#draft-state")?.dataset.state === "saved", null, { timeout: 60000, polling: 50 });
    const savedMs = Date.now() - started;
    await page.screenshot({ path: join(shotsDir, "paste-5mb-1280x720.png") });
    t.diagnostic(`5 MB paste (${text.length} characters): nodes on screen after ${nodesMs} ms, draft saved after ${savedMs} ms (from the paste)`);

    await page.goto(url + "stage.css"); // leave, then come back
    await page.goto(url);
    await page.waitForFunction(() => window.__schedplay?.loads >= 1 && window.__schedplayText().length > 1000, null, { timeout: 90000, polling: 50 });
    assert.equal((await editorText(page)).length, text.length, "the paste came back whole");
    assert.ok((await editorText(page)) === text);
    await page.close();
  });

  // The draft's write (10 to 30 ms at 1 MB) waits for the edit's load to
  // answer instead of falling between its slices: each put of the draft
  // sees no load under way, unless the load has not answered 2 s after it
  // started (main.ts's DRAFT_LATEST_MS: a fresh page's first large load on
  // a busy machine), and the last holds the edit.
  test("an edit's draft is saved once its load has answered, not while it loads", async () => {
    const page = await openAt(context, url);
    await page.evaluate(() => {
      window.__draftPuts = [];
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (value, key) {
        if (key === "schedplay.draft") window.__draftPuts.push({ loading: window.__schedplay.loading, length: value.length, t: performance.now() });
        return put.call(this, value, key);
      };
      const p = window.__schedplay;
      let loads = p.loads;
      Object.defineProperty(p, "loads", { get: () => loads, set: (n) => { loads = n; window.__repliedAt = performance.now(); } });
    });
    const text = cluster(200, 1500);
    const before = (await probe(page)).loads;
    await page.evaluate((t) => window.__schedplaySetText(t), text);
    await page.waitForFunction((b) => window.__schedplay.loads > b && window.__draftPuts.length > 0, before, { timeout: 60000, polling: 20 });
    const puts = await page.evaluate(() => window.__draftPuts);
    const { editMarks: marks } = await probe(page);
    assert.ok(marks.load > 50, "the load took several slices (else the test shows nothing)");
    const started = (await page.evaluate(() => window.__repliedAt)) - marks.load;
    assert.deepEqual(puts.filter((p) => p.loading && p.t - started < 2000), [], `no draft written while the load was under way (it took ${Math.round(marks.load)} ms)`);
    assert.equal(puts.at(-1).length, text.length);
    assert.equal((await idbDraft(page, "schedplay.draft"))?.length, text.length);
    await page.close();
  });

  test("Reset keeps the previous text one click away", async () => {
    const page = await openAt(context, url);
    await page.evaluate(() => window.__schedplaySetText("# mine\napiVersion: v1\nkind: Node\nmetadata: {name: mine}\n"));
    await page.waitForFunction(() => !window.__schedplay.editPending, null, { polling: 50 });
    await page.getByRole("button", { name: "Reset" }).click();
    await page.waitForSelector("#share-banner:not([hidden])");
    assert.match(await page.textContent("#share-banner"), /Reset to the default scenario\. Your previous text is kept\./);
    assert.ok(!(await editorText(page)).startsWith("# mine"));
    await page.getByRole("button", { name: "Restore your previous draft" }).click();
    assert.ok((await editorText(page)).startsWith("# mine"), "the text before Reset is back");
    await page.close();
  });
});

describe("diagnostics", () => {
  let browser, context;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  });
  after(async () => browser?.close());

  test("a syntax error shows a gutter marker at its line, the problems list jumps there", async () => {
    const page = await openAt(context, url);
    const text = "apiVersion: v1\nkind: Node\nmetadata:\n  name: [a, b\nstatus: {}\n";
    await page.evaluate((t) => window.__schedplaySetText(t), text);
    await page.waitForFunction(() => !window.__schedplay.editPending && window.__schedplay.lastReply?.ok === false, null, { polling: 50 });
    const d = (await probe(page)).lastReply.diagnostics[0];
    await page.waitForSelector(".cm-gutter-lint .cm-lint-marker-error");
    // The marker sits on the diagnostic's line: same top as that line's number.
    const { marker, line } = await page.evaluate((ln) => {
      const m = document.querySelector(".cm-gutter-lint .cm-lint-marker-error").getBoundingClientRect();
      const num = [...document.querySelectorAll(".cm-lineNumbers .cm-gutterElement")].find((e) => e.textContent === String(ln)).getBoundingClientRect();
      return { marker: m.top + m.height / 2, line: [num.top, num.bottom] };
    }, d.line);
    assert.ok(marker >= line[0] && marker <= line[1], `marker at y=${marker}, line ${d.line} spans ${line}`);
    assert.match(await page.textContent("#notice-text"), new RegExp(`Line ${d.line}, column ${d.col}: `));
    const item = page.getByRole("button", { name: new RegExp(`Line ${d.line}, column ${d.col}:`) });
    await item.click();
    const head = await page.evaluate(() => {
      const st = window.__schedplayEditorView.state;
      const at = st.doc.lineAt(st.selection.main.head);
      return { line: at.number, col: st.selection.main.head - at.from + 1 };
    });
    assert.deepEqual(head, { line: d.line, col: d.col }, "the cursor went to the problem");
    await page.screenshot({ path: join(shotsDir, "syntax-error-gutter-1280x720.png") });
    for (const [w, h] of [[390, 844], [1920, 1080], [400, 300]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(shotsDir, `syntax-error-${w}x${h}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    // A warning turns the status amber and is listed too.
    await page.evaluate((t) => window.__schedplaySetText(t), "apiVersion: v1\nkind: Node\nmetadata: {name: a}\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: gvisor\n  containers: [{name: c, image: i}]\n");
    await page.waitForFunction(() => !window.__schedplay.editPending && window.__schedplay.lastReply?.ok === true, null, { polling: 50 });
    assert.match(await page.textContent("#status"), / · 1 warning$/);
    assert.match(await page.textContent("#problems summary"), /^1 warning$/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("typing", () => {
  let browser, context;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  });
  after(async () => browser?.close());

  // Two nodes and three pods: loads of a few milliseconds.
  const small = ["a", "b"].map((n) => `apiVersion: v1\nkind: Node\nmetadata: {name: ${n}}\nstatus:\n  allocatable: {cpu: "4", memory: 8Gi, pods: "10"}\n`)
    .concat([1, 2, 3].map((i) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p${i}}\nspec:\n  containers: [{name: c, image: i, resources: {requests: {cpu: 500m}}}]\n`)).join("---\n");

  // record logs, in the page, each reply the page takes (its time and
  // whether it loaded) and each time the notice shows or the status speaks.
  const record = (page) => page.evaluate(() => {
    const p = window.__schedplay, log = (window.__typed = []);
    let loads = p.loads;
    Object.defineProperty(p, "loads", { get: () => loads, set: (n) => { loads = n; log.push({ t: performance.now(), ok: p.lastReply.ok }); } });
    const notice = document.querySelector("#notice"), status = document.querySelector("#status");
    new MutationObserver(() => { if (!notice.hidden) log.push({ t: performance.now(), notice: true }); }).observe(notice, { attributes: true });
    new MutationObserver(() => log.push({ t: performance.now(), status: status.textContent })).observe(status, { childList: true, characterData: true, subtree: true });
    document.addEventListener("keydown", () => log.push({ t: performance.now(), key: true }), true);
  });
  const typed = (page) => page.evaluate(() => window.__typed.splice(0));
  // selectLast selects, in the editor, the last pod's cpu request.
  const selectLast = (page) => page.evaluate(() => {
    const view = window.__schedplayEditorView, doc = view.state.doc.toString();
    const from = doc.lastIndexOf("cpu: ") + "cpu: ".length;
    view.dispatch({ selection: { anchor: from, head: doc.indexOf("}", from) } });
    view.focus();
  });

  // The editor parses the documents near its view only (yaml-docs.ts): text
  // jumped to far away is highlighted once it is in view.
  test("text far down a large scenario is highlighted once jumped to", async () => {
    const page = await openAt(context, url);
    const text = cluster(200, 3000);
    await page.evaluate((t) => window.__schedplaySetText(t), text);
    await page.waitForFunction(() => !window.__schedplay.editPending, null, { polling: 50 });
    // The highlighted words on the lines in the DOM that name a node or pod.
    const named = () => page.evaluate(() => [...document.querySelectorAll(".cm-line")]
      .filter((l) => /name: (node|pod)-\d+,/.test(l.textContent))
      .map((l) => [/(node|pod)-\d+/.exec(l.textContent)[0], [...l.querySelectorAll("span[class]")].map((s) => s.textContent).join(" ")]));
    for (const [key, last] of [["Control+End", "pod-2999"], ["Control+Home", "node-0"]]) {
      await page.click(".cm-content");
      await page.keyboard.press(key);
      // CodeMirror parses what came into view in idle time: poll.
      let lines = [];
      for (const until = Date.now() + 10000; Date.now() < until; await page.waitForTimeout(50)) {
        lines = await named();
        if (lines.some(([name]) => name === last) && lines.every(([, words]) => words !== "")) break;
      }
      assert.ok(lines.some(([name]) => name === last), `${last} among ${lines.map(([name]) => name)}`);
      for (const [name, words] of lines) assert.match(words, /^metadata /, `after ${key}, ${name}: ${JSON.stringify(words)}`);
    }
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("the canvas follows what is typed, and the words wait for a pause", async () => {
    const page = await openAt(context, url);
    await page.evaluate((t) => window.__schedplaySetText(t), small);
    await page.waitForFunction(() => window.__schedplay.simDone && !window.__schedplay.editPending && window.__schedplay.lastReply?.summary?.pods === 3, null, { polling: 50 });
    await record(page);

    // A lone keystroke loads after the frame that shows it, without waiting
    // for typing to pause; its words wait for the pause.
    await selectLast(page);
    await page.keyboard.type("2");
    await page.waitForFunction(() => !window.__schedplay.editPending && !window.__schedplay.loading, null, { polling: 20 });
    let log = await typed(page);
    const marks = await page.evaluate(() => window.__schedplay.editMarks);
    const key = log.find((e) => e.key).t, reply = log.find((e) => "ok" in e);
    assert.ok(reply?.ok, `no good load: ${JSON.stringify(log)}`);
    const started = reply.t - marks.load - key;
    assert.ok(started < 250, `the load started ${Math.round(started)} ms after the keystroke: ${JSON.stringify(log)}`);
    assert.ok(log.filter((e) => "status" in e).every((e) => e.t - key >= 250), `the status spoke before the pause: ${JSON.stringify(log)}`);

    // A burst of keystrokes 120 ms apart: where loads are cheap each one
    // loads, where costly the burst loads once after the pause
    // (web/src/edit-pace.ts); either way the status speaks once typing
    // has paused.
    await selectLast(page);
    await page.keyboard.type("250m", { delay: 120 });
    await page.waitForFunction(() => !window.__schedplay.editPending && !window.__schedplay.loading, null, { polling: 20 });
    log = await typed(page);
    const loads = log.filter((e) => "ok" in e);
    assert.ok(loads.length >= 1 && loads.every((e) => e.ok), JSON.stringify(log));
    assert.equal(await editorText(page), small.replace(/500m(?![^]*500m)/, "250m"));
    const lastKey = log.filter((e) => e.key).at(-1).t;
    const spoken = log.filter((e) => "status" in e);
    assert.ok(spoken.length > 0 && spoken.every((e) => e.t - lastKey >= 250), `the status spoke while typing: ${JSON.stringify(log)}`);

    // A half-typed value that does not load ("250mx") flashes no error when
    // the next keystroke mends it.
    await page.keyboard.type("x", { delay: 0 });
    await page.waitForTimeout(40);
    await page.keyboard.press("Backspace");
    await page.waitForFunction(() => !window.__schedplay.editPending && !window.__schedplay.loading, null, { polling: 20 });
    log = await typed(page);
    assert.deepEqual(log.filter((e) => e.notice), [], `the notice showed: ${JSON.stringify(log)}`);
    assert.match(await page.textContent("#status"), /^2 nodes · 3 pods/);

    // One that stays shows, once typing has paused.
    await page.keyboard.type("x");
    await page.waitForFunction(() => !document.querySelector("#notice").hidden, null, { polling: 20 });
    log = await typed(page);
    const xKey = log.find((e) => e.key).t, shown = log.find((e) => e.notice).t;
    assert.ok(shown - xKey >= 250, `the notice showed ${Math.round(shown - xKey)} ms after the keystroke`);
    assert.match(await page.textContent("#notice-text"), /^1 error/);
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("completion and hover", () => {
  let browser, context;
  before(async () => {
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  });
  after(async () => browser?.close());

  // completeAt puts text in the editor, the cursor at "|", presses
  // Ctrl+Space and returns the labels offered.
  async function completeAt(page, text) {
    const pos = text.indexOf("|");
    await page.evaluate(([t, p]) => {
      window.__schedplaySetText(t);
      window.__schedplayEditorView.dispatch({ selection: { anchor: p } });
      window.__schedplayEditorView.focus();
    }, [text.replace("|", ""), pos]);
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".cm-tooltip-autocomplete li", { timeout: 10000 });
    const got = await page.$$eval(".cm-tooltip-autocomplete li .cm-completionLabel", (els) => els.map((e) => e.textContent));
    return got;
  }

  test("Ctrl+Space offers kinds, then a Pod's fields; hover describes a field", async () => {
    const page = await openAt(context, url);
    await page.waitForFunction(() => window.__schedplaySchemaReady === true, null, { timeout: 30000, polling: 50 });
    const kinds = await completeAt(page, "apiVersion: v1\nkind: |\n");
    assert.ok(kinds.includes("Pod") && kinds.includes("Node"), kinds.join(" "));
    await page.screenshot({ path: join(shotsDir, "complete-kind-1280x720.png") });
    await page.keyboard.press("Escape");
    const fields = await completeAt(page, "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: [{name: c, image: i}]\n  |\n");
    assert.ok(fields.includes("priorityClassName") && fields.includes("topologySpreadConstraints"), fields.join(" "));
    await page.screenshot({ path: join(shotsDir, "complete-pod-spec-1280x720.png") });
    await page.keyboard.press("Escape");

    await page.evaluate(() => window.__schedplaySetText("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: i}]\n"));
    const key = page.locator(".cm-line", { hasText: "priorityClassName" });
    const box = await key.boundingBox();
    await page.mouse.move(box.x + 40, box.y + box.height / 2);
    await page.waitForSelector(".cm-schema-hover", { timeout: 10000 });
    assert.match(await page.textContent(".cm-schema-hover"), /priorityClassName \(string\)\s+If specified, indicates the pod's priority/);
    await page.screenshot({ path: join(shotsDir, "hover-1280x720.png") });
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});
