// Unit tests of web/src/explain-table.ts's node order: natural names
// (node-2 before node-10), feasible nodes first by the engine's total,
// rejected ones by plugin.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("explain-table.ts");
});

const nodes = [
  { name: "node-10", feasible: false, plugin: "TaintToleration" },
  { name: "node-2", feasible: true, total: 50 },
  { name: "node-1", feasible: false, plugin: "NodeResourcesFit" },
  { name: "node-11", feasible: true, total: 80 },
  { name: "node-3", feasible: true, total: 50 },
  { name: "node-20", feasible: false, plugin: "NodeResourcesFit" },
];
const order = (key) => [...nodes].sort((a, b) => M.compare(key, a, b)).map((n) => n.name);

test("names sort naturally", () => {
  assert.deepEqual(order("node"), ["node-1", "node-2", "node-3", "node-10", "node-11", "node-20"]);
});

test("the filter column puts feasible nodes first, highest total first, then rejections by plugin", () => {
  assert.deepEqual(order("result"), ["node-11", "node-2", "node-3", "node-1", "node-20", "node-10"]);
});

test("the score column sorts by total, rejected nodes last", () => {
  assert.deepEqual(order("total"), ["node-11", "node-2", "node-3", "node-1", "node-10", "node-20"]);
});

// The scores table reads the engine's three scores as they are and sorts
// by any column: a plugin's shown score highest first, ties by name.
const scored = [
  { name: "node-10", feasible: true, total: 300, raw: { TaintToleration: 0 }, scores: { TaintToleration: 100 }, weighted: { TaintToleration: 300 } },
  { name: "node-2", feasible: true, total: 150, raw: { TaintToleration: 1 }, scores: { TaintToleration: 50 }, weighted: { TaintToleration: 150 } },
  { name: "node-9", feasible: true, total: 0, raw: { TaintToleration: 2 }, scores: { TaintToleration: 0 }, weighted: { TaintToleration: 0 } },
];
const scoreOrder = (key, view) => [...scored].sort((a, b) => M.compareScores(key, view, a, b)).map((n) => n.name);

test("each view shows the engine's own number", () => {
  assert.deepEqual(["raw", "normalized", "weighted"].map((v) => M.scoreOf(scored[1], v, "TaintToleration")), [1, 50, 150]);
  assert.equal(M.scoreOf(scored[1], "raw", "NodeAffinity"), undefined);
});

test("a plugin column sorts by the score shown, which normalization can turn around", () => {
  assert.deepEqual(scoreOrder("plugin:TaintToleration", "raw"), ["node-9", "node-2", "node-10"]);
  assert.deepEqual(scoreOrder("plugin:TaintToleration", "normalized"), ["node-10", "node-2", "node-9"]);
  assert.deepEqual(scoreOrder("node", "weighted"), ["node-2", "node-9", "node-10"]);
  assert.deepEqual(scoreOrder("total", "raw"), ["node-10", "node-2", "node-9"]);
});
