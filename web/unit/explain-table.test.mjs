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
