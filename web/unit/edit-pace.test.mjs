// Unit tests of when typed text loads (web/src/edit-pace.ts), on a clock
// of the test's own: time moves and frames come only when a test says so.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let P;
before(async () => {
  P = await loadTS("edit-pace.ts");
});

// page is a fake page: its clock, frames and timers, and what the pace
// asked of it (loads, stale) in order.
function page() {
  const p = { t: 1000, frames: [], timers: new Map(), next: 1, log: [] };
  p.clock = {
    now: () => p.t,
    afterFrame: (fn) => p.frames.push(fn),
    after: (fn, ms) => {
      p.timers.set(p.next, { at: p.t + ms, fn });
      return p.next++;
    },
    cancel: (id) => p.timers.delete(id),
  };
  p.pace = new P.EditPace(p.clock, { load: () => p.log.push(`load@${p.t}`), stale: () => p.log.push(`stale@${p.t}`) });
  // frame runs the callbacks waiting for the next frame.
  p.frame = () => {
    const fns = p.frames;
    p.frames = [];
    for (const fn of fns) fn();
  };
  // wait moves the clock by ms, firing timers that come due on the way.
  p.wait = (ms) => {
    const end = p.t + ms;
    for (;;) {
      const due = [...p.timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      p.timers.delete(due[0]);
      p.t = due[1].at;
      due[1].fn();
    }
    p.t = end;
  };
  return p;
}

test("a keystroke loads after the frame that shows it, keystrokes in one frame once", () => {
  const p = page();
  p.pace.edit();
  assert.ok(p.pace.pending);
  assert.deepEqual(p.log, [], "not before the keystroke's frame");
  p.wait(5);
  p.pace.edit();
  p.frame();
  assert.deepEqual(p.log, ["load@1005"]);
  assert.equal(p.pace.pending, false);
  p.frame();
  assert.deepEqual(p.log, ["load@1005"], "one load for both");
});

test("while loads are cheap, every keystroke of a burst loads", () => {
  const p = page();
  p.pace.loaded(P.CHEAP_MS);
  for (let i = 0; i < 4; i++) {
    p.pace.edit();
    p.wait(16);
    p.frame();
    p.wait(100);
  }
  assert.deepEqual(p.log, ["load@1016", "load@1132", "load@1248", "load@1364"]);
});

test("where loads cost more, a burst stops the stale work and loads once typing pauses", () => {
  const p = page();
  p.pace.loaded(P.CHEAP_MS + 1);
  p.pace.edit(); // the first keystroke after a pause loads at once
  p.frame();
  for (let i = 0; i < 3; i++) {
    p.wait(120);
    p.pace.edit();
    p.frame();
  }
  assert.deepEqual(p.log, ["load@1000", "stale@1120", "stale@1240", "stale@1360"]);
  assert.ok(p.pace.pending, "the burst's load waits for the pause");
  p.wait(P.QUIET_MS - 1);
  p.frame();
  assert.equal(p.log.length, 4, "not before the pause");
  p.wait(1);
  assert.equal(p.log.length, 4, "nor before the frame after it");
  p.frame();
  assert.deepEqual(p.log.slice(4), [`load@${1360 + P.QUIET_MS}`]);
  assert.equal(p.pace.pending, false);
  // A keystroke after the pause loads at once again.
  p.wait(P.QUIET_MS);
  p.pace.edit();
  p.frame();
  assert.deepEqual(p.log.slice(5), [`load@${1360 + 2 * P.QUIET_MS}`]);
});

test("a keystroke before its frame is kept by a costly burst, not loaded twice", () => {
  const p = page();
  p.pace.loaded(1000);
  p.pace.edit();
  p.wait(10);
  p.pace.edit(); // before the first one's frame
  p.frame();
  assert.deepEqual(p.log, ["stale@1010"], "the first keystroke's load waits with the second");
  p.wait(P.QUIET_MS);
  p.frame();
  assert.deepEqual(p.log, ["stale@1010", `load@${1010 + P.QUIET_MS}`]);
});

test("words wait for typing to pause, and a keystroke drops the older words", () => {
  const p = page();
  const said = [];
  p.pace.whenQuiet(() => said.push(`first@${p.t}`));
  assert.deepEqual(said, ["first@1000"], "no typing yet: at once");
  p.pace.edit();
  p.wait(50);
  p.pace.whenQuiet(() => said.push(`second@${p.t}`));
  p.wait(100);
  p.pace.edit(); // the second words describe an older text
  p.wait(P.QUIET_MS + 10);
  assert.deepEqual(said, ["first@1000"]);
  p.pace.whenQuiet(() => said.push(`third@${p.t}`));
  assert.deepEqual(said, ["first@1000", `third@${p.t}`], "typing paused already: at once");
  p.pace.edit();
  p.pace.whenQuiet(() => said.push("fourth"));
  p.pace.whenQuiet(() => said.push(`fifth@${p.t}`)); // replaces the fourth
  const at = p.t;
  p.wait(P.QUIET_MS);
  assert.deepEqual(said.slice(2), [`fifth@${at + P.QUIET_MS}`]);
});

test("drop forgets a load not started: the text was loaded otherwise", () => {
  const p = page();
  p.pace.edit();
  p.pace.drop();
  assert.equal(p.pace.pending, false);
  p.frame();
  p.pace.loaded(1000);
  p.wait(10);
  p.pace.edit(); // typing, costly: waits for the pause
  p.pace.drop();
  p.wait(P.QUIET_MS * 2);
  p.frame();
  assert.deepEqual(p.log, ["stale@1010"]);
});
