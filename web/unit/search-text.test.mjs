// Unit tests of web/src/search-text.ts: the details panel's sentences about
// a partial node search and a tie, from the engine's explain JSON.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("search-text.ts");
});

const nodes = (from, to) => Array.from({ length: to - from }, (_, i) => `node-${String(from + i).padStart(3, "0")}`);

test("a partial search says what was evaluated, from where, why, and what was not", () => {
  const ex = {
    selected: ["node-110"],
    search: { nodes: 120, percentage: 0, want: 100, start: "node-000", evaluated: 100, feasible: 100,
      stoppedOn: "node-100", notEvaluated: nodes(101, 120), couldTake: nodes(0, 120) },
  };
  const lines = M.searchLines(ex);
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^Evaluated 100 of 120 nodes, starting at node-000 .* until 100 were feasible \(percentageOfNodesToScore adaptive\); stopped on the next feasible node, node-100\.$/);
  assert.match(lines[1], /^Never looked at \(dimmed on the canvas\): 19 nodes: node-101, .*, node-112 and 7 more\.$/);
  assert.match(lines[2], /node-110, was not among the nodes looked at/);
  assert.match(lines[3], /could have taken any of 120: node-000, .* and 108 more\.$/);
});

test("a tie names the nodes and the one this run took; a full search says nothing", () => {
  assert.deepEqual(M.searchLines({ selected: ["a"] }), []);
  const lines = M.searchLines({ selected: ["a", "b"], tie: { nodes: ["a", "b"], score: 300, taken: "b" } });
  assert.deepEqual(lines, ["A tie at 300: a, b. Which one kube-scheduler takes depends on the order its filter found them in; this run took b."]);
});

test("a set percentage is named", () => {
  const ex = { selected: ["n1"], search: { nodes: 200, percentage: 10, want: 100, start: "n5", evaluated: 150, feasible: 100, notEvaluated: ["n2"] } };
  const lines = M.searchLines(ex);
  assert.match(lines[0], /percentageOfNodesToScore 10%\)\.$/);
  assert.equal(lines.length, 2);
});
