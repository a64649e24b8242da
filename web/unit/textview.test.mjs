// Unit tests of web/src/textview.ts's sentences (the canvas's keyboard
// focus is announced with them): in English, as the catalog words them.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("textview.ts");
});

const web = { key: "default/web", node: "node-a", phase: "Running", priority: 100, priorityClass: "low" };
const late = { key: "default/late", phase: "Pending", priority: 0, queue: "backoffQ", nominatedNode: "node-a" };
const gone = { key: "default/batch", node: "node-a", phase: "Running", priority: 10, terminating: "SIGKILL at 30s", evicted: true };
const outline = {
  ok: true, t: 0, caption: "", zoneKey: "topology.kubernetes.io/zone", pending: [late],
  zones: [
    { name: "zone-a", nodes: [{ name: "node-a", cpu: "2/4", memory: "1Gi/8Gi", pods: "2/10", cordoned: true, taints: ["gpu=yes:NoSchedule"], nominated: ["default/late"], bound: [web, gone] }] },
    { name: "", nodes: [{ name: "node-b", cpu: "0/4", memory: "0/8Gi", pods: "0/10", bound: [] }] },
  ],
};

test("a pod's sentence: where it runs, its phase and priority, then what else holds", () => {
  assert.equal(M.describe(outline, "pod", "default/web"), "Pod default/web on node-a, Running, priority 100 (low).");
  assert.equal(M.describe(outline, "pod", "default/late"), "Pod default/late, Pending, priority 0. pending in backoffQ; nominated to node-a.");
  assert.equal(M.describe(outline, "pod", "default/batch"), "Pod default/batch on node-a, Running, priority 10. evicted: SIGKILL at 30s.");
  assert.equal(M.describe(outline, "pod", "default/none"), "Pod default/none");
});

test("a node's sentence: its zone, its pods (one or more) and its notes", () => {
  assert.equal(M.describe(outline, "node", "node-a"),
    "Node node-a in zone-a, 2 pods. cpu 2/4; memory 1Gi/8Gi; pods 2/10; cordoned; taints gpu=yes:NoSchedule; room reserved for default/late.");
  outline.zones[0].nodes[0].bound = [web];
  assert.equal(M.describe(outline, "node", "node-a").split(".")[0], "Node node-a in zone-a, 1 pod");
  assert.equal(M.describe(outline, "node", "node-b"), "Node node-b, 0 pods. cpu 0/4; memory 0/8Gi; pods 0/10.");
});

test("in Chinese the sentence takes the zh-CN catalog's words and punctuation", async () => {
  globalThis.location = { search: "?lang=zh-CN" };
  try {
    const zh = await loadTS("textview.ts");
    assert.equal(zh.describe(outline, "pod", "default/web"), "Pod default/web，在 node-a 上，Running，优先级 100 (low)。");
    assert.equal(zh.describe(outline, "pod", "default/late"), "Pod default/late，Pending，优先级 0。在 backoffQ 中等待；被提名到 node-a。");
  } finally {
    delete globalThis.location;
  }
});
