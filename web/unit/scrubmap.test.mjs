// Unit tests of web/src/scrubmap.ts: the scrubber's scale compresses long
// idle stretches and maps back and forth.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("scrubmap.ts");
});

test("a run ending with the 5-minute flush keeps its first 30 s wide", () => {
  const m = new M.ScrubMap([0, 1, 5, 12, 30, 330], 330);
  assert.deepEqual(m.idle, [[30, 330]]);
  // Linear, the first 30 s were 30/330 = 9 % of the track; now 94 %.
  assert.ok(Math.abs(m.pos(30) - 0.94) < 1e-9, `30 s at ${m.pos(30)}`);
  assert.equal(m.pos(330), 1);
  assert.equal(m.pos(0), 0);
});

test("pos and time are inverse and increasing", () => {
  const m = new M.ScrubMap([0, 2, 2, 3, 40, 41, 400], 400);
  let prev = -1;
  for (let t = 0; t <= 400; t += 0.5) {
    const p = m.pos(t);
    assert.ok(p >= prev, `pos(${t}) = ${p} < ${prev}`);
    prev = p;
    assert.ok(Math.abs(m.time(p) - t) < 1e-6, `time(pos(${t})) = ${m.time(p)}`);
  }
});

test("a run without idle stretches is linear", () => {
  const m = new M.ScrubMap([0, 10, 20, 30], 30);
  assert.deepEqual(m.idle, []);
  assert.ok(Math.abs(m.pos(15) - 0.5) < 1e-9);
});
