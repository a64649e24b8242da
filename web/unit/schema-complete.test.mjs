// Unit tests of web/src/schema-complete.ts on the generated schema: what
// the editor offers at the cursor ("|" in the texts) and what hover says.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadTS, web } from "./load.mjs";

let S;
before(async () => {
  S = await loadTS("schema-complete.ts");
  S.setSchema(JSON.parse(readFileSync(join(web, "src/generated/scenario-schema.json"), "utf8")));
});

function labels(text) {
  const pos = text.indexOf("|");
  const r = S.completeAt(text.replace("|", ""), pos, true);
  return r ? r.options.map((o) => o.label) : [];
}

describe("schema completion", () => {
  test("after kind: the kinds the loader reads", () => {
    const got = labels("apiVersion: v1\nkind: |\n");
    for (const k of ["Pod", "Node", "PriorityClass", "PodDisruptionBudget", "Deployment", "KubeSchedulerConfiguration", "Timeline", "Lesson", "List"]) {
      assert.ok(got.includes(k), `${k} in ${got}`);
    }
  });

  test("apiVersion pairs with the kind", () => {
    assert.deepEqual(labels("apiVersion: |\nkind: PriorityClass\n"), ["scheduling.k8s.io/v1"]);
    assert.deepEqual(labels("kind: Deployment\napiVersion: |\n"), ["apps/v1"]);
  });

  test("under a Pod's spec: its fields, not the ones written", () => {
    const got = labels("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec:\n  containers: []\n  |\n");
    assert.ok(got.includes("priorityClassName"), got.join(" "));
    assert.ok(got.includes("topologySpreadConstraints"));
    assert.ok(!got.includes("containers"), "a key already written is not offered");
    assert.ok(!got.includes("replicas"));
  });

  test("in the second document, its own kind decides", () => {
    const got = labels("apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n---\napiVersion: v1\nkind: Node\nspec:\n  |\n");
    assert.ok(got.includes("taints") && got.includes("unschedulable"), got.join(" "));
    assert.ok(!got.includes("priorityClassName"));
  });

  test("inside list items, block and kubectl style", () => {
    const spread = labels("kind: Pod\nspec:\n  topologySpreadConstraints:\n  - maxSkew: 1\n    |\n");
    assert.ok(spread.includes("whenUnsatisfiable") && spread.includes("nodeAffinityPolicy") && !spread.includes("maxSkew"), spread.join(" "));
    const kubectl = labels("kind: Pod\nspec:\n  containers:\n  - name: c\n    resources:\n      |\n");
    assert.ok(kubectl.includes("requests") && kubectl.includes("limits"), kubectl.join(" "));
    const newItem = labels("kind: Node\nspec:\n  taints:\n    - |\n");
    assert.ok(newItem.includes("key") && newItem.includes("effect"), newItem.join(" "));
  });

  test("enumerated values", () => {
    assert.deepEqual(labels("kind: Node\nspec:\n  taints:\n  - key: a\n    effect: |\n"), ["NoExecute", "NoSchedule", "PreferNoSchedule"]);
    assert.deepEqual(labels("kind: Pod\nspec:\n  preemptionPolicy: |\n"), ["Never", "PreemptLowerPriority"]);
    assert.deepEqual(labels("kind: Pod\nspec:\n  topologySpreadConstraints:\n  - whenUnsatisfiable: |\n"), ["DoNotSchedule", "ScheduleAnyway"]);
  });

  test("plugin args are typed by the plugin's name", () => {
    const got = labels("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: s\n  pluginConfig:\n  - name: PodTopologySpread\n    args:\n      |\n");
    assert.ok(got.includes("defaultingType") && got.includes("defaultConstraints"), got.join(" "));
  });

  test("snippets for new objects at an empty document's top", () => {
    const got = labels("|");
    for (const s of ["new Node", "new Pod", "new PriorityClass", "new PodDisruptionBudget"]) assert.ok(got.includes(s), s);
  });
});

describe("schema hover", () => {
  const at = (text, word) => S.describeAt(text, text.indexOf(word) + 2);
  test("a Pod field: upstream's description", () => {
    const d = at("apiVersion: v1\nkind: Pod\nspec:\n  priorityClassName: high\n", "priorityClassName");
    assert.match(d.text, /^priorityClassName \(string\)\n\nIf specified, indicates the pod's priority\./);
  });
  test("a field schedplay does not simulate says so", () => {
    const d = at("apiVersion: v1\nkind: Pod\nspec:\n  runtimeClassName: gvisor\n", "runtimeClassName");
    assert.match(d.text, /Not simulated by schedplay \(a warning\): RuntimeClass overhead/);
  });
  test("nothing on a value or an unknown key", () => {
    const text = "kind: Pod\nspec:\n  bogus: 1\n";
    assert.equal(S.describeAt(text, text.indexOf("bogus") + 1), null);
    assert.equal(S.describeAt(text, text.indexOf("Pod") + 1), null);
  });
});

describe("the editor's document, read line by line", () => {
  test("places and hovers as the whole text does, at every position of every example", async () => {
    const { Text } = await import("@codemirror/state");
    const dir = join(web, "..", "examples");
    const { readdirSync } = await import("node:fs");
    let checked = 0;
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".yaml"))) {
      const text = readFileSync(join(dir, name), "utf8");
      const doc = S.editorDoc(Text.of(text.split("\n")));
      const whole = S.textDoc(text);
      for (let pos = 0; pos <= text.length; pos++) {
        // The row the text before pos ends in, counted the slow way.
        const row = text.slice(0, pos).split("\n").length - 1;
        assert.equal(whole.rowAt(pos), row, `${name}:${pos}`);
        assert.equal(doc.rowAt(pos), row, `${name}:${pos}`);
        if (pos % 5 !== 0) continue; // placing is slower; every fifth position
        assert.deepEqual(S.placeAt(doc, pos), S.placeAt(text, pos), `${name}:${pos}`);
        assert.deepEqual(S.describeAt(doc, pos), S.describeAt(text, pos), `${name}:${pos}`);
        checked++;
      }
    }
    assert.ok(checked > 10000, `${checked} positions`);
  });
});
