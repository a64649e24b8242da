// Unit tests of web/src/lesson-meta.ts on every example and on the forms a
// file may take.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadTS, web } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("lesson-meta.ts");
});

describe("lessonMeta", () => {
  test("every example has a title, a topic and a summary", () => {
    const dir = join(web, "..", "examples");
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".yaml"))) {
      const m = M.lessonMeta(readFileSync(join(dir, f), "utf8"), f);
      assert.ok(m.title.length > 3 && !m.title.includes("\n"), `${f}: title ${JSON.stringify(m.title)}`);
      assert.ok(m.topic.length > 0, `${f}: no topic`);
      assert.ok(m.summary.length > 40 && !/^[>|]/.test(m.summary), `${f}: summary ${JSON.stringify(m.summary)}`);
    }
  });

  const cases = [
    {
      name: "folded summary, quoted title, comments after values",
      text: `# Leading.\nkind: Node\n---\napiVersion: schedplay.dev/v1alpha1\nkind: Lesson\nmetadata: {name: x}\nspec:\n  title: "A: quoted"\n  topic: Preemption  # group\n  summary: >-\n    one\n    two\n  captions: []\n`,
      want: { title: "A: quoted", topic: "Preemption", summary: "one two" },
    },
    {
      name: "no Lesson: the leading comment",
      text: "# Node constraints.\n# Taints and\n# cordons.\napiVersion: v1\nkind: Node\n",
      want: { title: "Node constraints", topic: "", summary: "Taints and cordons." },
    },
    {
      name: "nothing at all: the file name",
      text: "kind: Node\n",
      want: { title: "my example", topic: "", summary: "" },
    },
    {
      name: "a Lesson of another group is not ours",
      text: "apiVersion: example.com/v1\nkind: Lesson\nspec:\n  title: Not it\n",
      want: { title: "my example", topic: "", summary: "" },
    },
  ];
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(M.lessonMeta(c.text, "my-example.yaml"), c.want);
    });
  }
});
