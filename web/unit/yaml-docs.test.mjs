// Unit tests of the editor's per-document YAML parser (web/src/yaml-docs.ts):
// it reads a stream as @lezer/yaml reads it whole, an incremental parse after
// any edit equals a fresh one, and an edit reparses only its own document.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { loadTS, web } from "./load.mjs";
import { cluster } from "../bench/scenarios.mjs";

let Y;
before(async () => {
  Y = await loadTS("../unit/yaml-docs-entry.ts");
});

// nodes lists a tree's named nodes with their ranges, in document order.
function nodes(tree) {
  const out = [];
  tree.iterate({ enter: (n) => { out.push(`${n.name} ${n.from}-${n.to}`); } });
  return out;
}

// parse runs a parse to its end and counts its steps.
function parse(parser, text, fragments = []) {
  const p = parser.startParse(text, fragments);
  let steps = 1, tree;
  while (!(tree = p.advance())) steps++;
  return { tree, steps };
}

function edit(tree, text, from, to, insert) {
  const next = text.slice(0, from) + insert + text.slice(to);
  const fragments = Y.TreeFragment.applyChanges(Y.TreeFragment.addTree(tree), [{ fromA: from, toA: to, fromB: from, toB: from + insert.length }]);
  return { next, fragments };
}

const examples = join(web, "..", "examples");
const samples = () => [
  ...readdirSync(examples).filter((f) => f.endsWith(".yaml")).map((f) => [f, readFileSync(join(examples, f), "utf8")]),
  ["bench cluster", cluster(30, 60)],
  ["no marker first", "a: 1\n---\nb: 2\n"],
  ["markers only", "---\n---\n--- \n---"],
  ["comments and end markers", "# head\n--- # c\nk: v\n...\n---\nl: [1, 2\n"],
  ["marker-like text", "k: |\n  ---\n  x\nm: ---x\n----\n--- a\n"],
  ["directive", "%YAML 1.2\n---\nk: v\n"],
  ["directives later", "---\na: 1\n...\n%YAML 1.2\n%TAG ! tag:x,2000:\n---\nb: 2\n---\nc: 3\n"],
  ["empty", ""],
];

test("a fresh parse reads each document as @lezer/yaml reads the stream", () => {
  for (const [name, text] of samples()) {
    const whole = Y.wholeParser.parse(text);
    const docs = Y.yamlStream.parser.parse(text);
    assert.equal(docs.length, text.length, name);
    assert.deepEqual(nodes(docs), nodes(whole), name);
  }
});

test("an incremental parse after any edit equals a fresh parse", () => {
  // A seeded generator: a failure names its step and reproduces.
  let seed = 7;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const inserts = ["x", "%", "\n%Y\n", "\n", "---\n", "\n---", "-", "  ", ": ", "'", "\"", "|\n", "#", "{", "]", "...\n", "- a\n"];
  const parser = Y.yamlStream.parser;
  let text = cluster(6, 12) + readFileSync(join(examples, "preemption-basic.yaml"), "utf8");
  let tree = parser.parse(text);
  for (let step = 0; step < 400; step++) {
    const from = rand(text.length + 1);
    const to = Math.min(text.length, from + (rand(3) === 0 ? rand(40) : 0));
    const insert = to > from && rand(2) === 0 ? "" : inserts[rand(inserts.length)];
    const { next, fragments } = edit(tree, text, from, to, insert);
    tree = parser.parse(next, fragments);
    assert.deepEqual(nodes(tree), nodes(parser.parse(next)), `step ${step}: ${JSON.stringify(insert)} at ${from}-${to}`);
    text = next;
  }
});

test("an edit reparses only the document it touches", () => {
  const parser = Y.yamlStream.parser;
  const text = cluster(100, 400);
  const full = parse(parser, text);
  const from = text.indexOf("cpu: ", text.indexOf("name: pod-200,")) + "cpu: ".length;
  const { next, fragments } = edit(full.tree, text, from, from + 4, "105m");
  const again = parse(parser, next, fragments);
  assert.deepEqual(nodes(again.tree), nodes(parser.parse(next)));
  // One document of 500 is parsed again: a few dozen tokens, not thousands.
  assert.ok(again.steps * 100 < full.steps, `${again.steps} steps after the edit, ${full.steps} for the whole stream`);
});

test("a parse stopped part way, as the editor stops one, resumes to the same tree", () => {
  const parser = Y.yamlStream.parser;
  const text = cluster(20, 40);
  for (const stopAfter of [1, 5, 40, 300]) {
    const p = parser.startParse(text);
    for (let i = 0; i < stopAfter; i++) p.advance();
    const at = p.parsedPos;
    p.stopAt(at);
    let partial;
    while (!(partial = p.advance())) {}
    assert.ok(partial.length >= at && partial.length < text.length, `stopped at ${at}, tree of ${partial.length}`);
    const resumed = parser.parse(text, Y.TreeFragment.addTree(partial, [], true));
    assert.deepEqual(nodes(resumed), nodes(parser.parse(text)), `stopped after ${stopAfter} steps`);
  }
});

test("documents split where a line starts with ---, across the scan's reads", () => {
  const parser = Y.yamlStream.parser;
  // The scan reads 1 KiB, then twice as much each time up to 64 KiB: its
  // reads end at these offsets. A first document of items whose last line
  // ends near one, then a small document whose edit must not reparse the
  // first.
  for (const edge of [1024, 3072, 64512, 130048]) {
    for (let shift = -6; shift <= 6; shift++) {
      const last = edge + shift - 1; // where the first document's last line break is
      const items = Math.floor((last - 10) / 4);
      const head = "- a\n".repeat(items) + "- " + "b".repeat(last - 4 * items - 2) + "\n";
      assert.equal(head.length, last + 1);
      const text = head + "---\nk: 1\n";
      const full = parse(parser, text);
      assert.deepEqual(nodes(full.tree), nodes(Y.wholeParser.parse(text)), `edge ${edge} shift ${shift}`);
      const from = text.lastIndexOf("1");
      const { next, fragments } = edit(full.tree, text, from, from + 1, "2");
      const again = parse(parser, next, fragments);
      assert.ok(again.steps < 50, `edge ${edge} shift ${shift}: ${again.steps} steps after the edit, ${full.steps} for the stream`);
    }
  }
});

test("the editor indents and folds each line as with lang-yaml's fresh parse", () => {
  const { EditorState, ensureSyntaxTree, foldable, freshYaml, getIndentation, syntaxTree, yamlDocuments } = Y;
  // A state whose tree spans the whole text: a new state parses 3,000
  // characters at most, in 20 ms at most; a transaction after the parse
  // is finished takes its tree.
  const parsed = (text, language) => {
    const state = EditorState.create({ doc: text, extensions: [language] });
    assert.ok(ensureSyntaxTree(state, text.length, 1e9));
    const next = state.update({}).state;
    assert.equal(syntaxTree(next).length, text.length);
    return next;
  };
  let lines = 0;
  for (const [name, text] of samples()) {
    const docs = parsed(text, yamlDocuments());
    const whole = parsed(text, freshYaml);
    for (let n = 1; n <= docs.doc.lines; n++, lines++) {
      const line = docs.doc.line(n);
      const at = `${name}:${n}`;
      assert.equal(getIndentation(docs, line.to), getIndentation(whole, line.to), at);
      assert.deepEqual(foldable(docs, line.from, line.to), foldable(whole, line.from, line.to), at);
    }
    assert.deepEqual(docs.languageDataAt("commentTokens", 0), whole.languageDataAt("commentTokens", 0), name);
  }
  assert.ok(lines > 1000, `${lines} lines compared`);
});
