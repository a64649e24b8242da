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

// The editor's parse worker shows the parse its viewport and runs it
// (ParseContext's updateViewport and work, internal to CodeMirror); a
// transaction after that takes the tree. These tests do the same without
// a view.
function viewAndParse(state, from, to, upto) {
  const cx = state.field(Y.Language.state).context;
  cx.updateViewport({ from, to });
  cx.work(1e9, upto);
  return state.update({}).state;
}

// near lists a tree's named nodes that reach into from-to.
function near(tree, from, to) {
  const out = [];
  tree.iterate({ from, to, enter: (n) => { if (n.to >= from && n.from <= to) out.push(`${n.name} ${n.from}-${n.to}`); } });
  return out;
}

test("in the editor, documents away from the view are parsed when they come into view", () => {
  const { language, parsed } = Y.countingYaml();
  const text = cluster(100, 400);
  const whole = Y.wholeParser.parse(text);
  let state = Y.EditorState.create({ doc: text, extensions: [language] });
  const mid = text.indexOf("name: pod-200,");
  const start = parsed();
  state = viewAndParse(state, mid, mid + 3000);
  const tree = Y.syntaxTree(state);
  assert.equal(tree.length, text.length);
  assert.deepEqual(near(tree, mid, mid + 3000), near(whole, mid, mid + 3000));
  // 3,000 characters and 10,000 each side, of 200-character documents:
  // about 115 documents of 500.
  const first = parsed() - start;
  assert.ok(first > 100 && first < 130, `${first} documents parsed`);
  // A new state parsed its first 3,000 characters; the rest is skipped.
  assert.deepEqual(near(tree, 4000, mid - 12000), ["Stream 0-" + text.length]);
  assert.deepEqual(near(tree, mid + 15000, text.length), ["Stream 0-" + text.length]);

  // Scrolled to the end: its documents are parsed, the middle's kept.
  const end = text.length - 2000;
  state = viewAndParse(state, end, text.length);
  const scrolled = Y.syntaxTree(state);
  assert.deepEqual(near(scrolled, end, text.length), near(whole, end, text.length));
  assert.deepEqual(near(scrolled, mid, mid + 3000), near(whole, mid, mid + 3000));
  const second = parsed() - start - first;
  assert.ok(second > 50 && second < 70, `${second} documents parsed after the scroll`);

  // A keystroke in view parses its own document only.
  const at = text.indexOf("cpu: ", text.indexOf("name: pod-395,")) + "cpu: ".length;
  assert.ok(at > end);
  const before = parsed();
  state = state.update({ changes: { from: at, to: at + 4, insert: "105m" } }).state;
  assert.equal(parsed() - before, 1);
  const next = state.doc.toString();
  assert.deepEqual(near(Y.syntaxTree(state), end, next.length), near(Y.yamlStream.parser.parse(next), end, next.length));

  // Asked for the whole tree, the editor parses the rest.
  assert.deepEqual(nodes(Y.ensureSyntaxTree(state, next.length, 1e9)), nodes(Y.wholeParser.parse(next)));
});

test("keystrokes in view parse their document and skip nothing again", () => {
  const { language, parsed } = Y.countingYaml();
  const text = cluster(100, 2000);
  let state = Y.EditorState.create({ doc: text, extensions: [language] });
  const mid = text.indexOf("name: pod-1000,");
  // As the parse worker does: up to 100,000 characters past the view.
  state = viewAndParse(state, mid, mid + 3000, mid + 103000);
  const skipped = () => state.field(Y.Language.state).context.skipped.length;
  const ranges = skipped();
  assert.ok(ranges >= 2, `${ranges} ranges skipped`);
  const at = text.indexOf("cpu: ", mid) + "cpu: ".length;
  for (const value of ["1", "2", "3", "4", "5"]) {
    const before = parsed();
    state = state.update({ changes: { from: at, to: at + 1, insert: value } }).state;
    assert.equal(parsed() - before, 1, `keystroke ${value}`);
    assert.equal(skipped(), ranges, `keystroke ${value}`);
  }
  assert.equal(Y.syntaxTree(state).length, text.length);
  // The worker going on further down without an edit (its stop moved, the
  // tree's fragment open at its end) reuses the placeholders too.
  const before = parsed();
  state = viewAndParse(state, mid + 1000, mid + 4000, mid + 104000);
  assert.equal(parsed() - before, 0);
  assert.equal(skipped(), ranges);
});

test("an edit at the end of skipped documents parses as a fresh parse when it comes into view", () => {
  const text = cluster(100, 400);
  let state = Y.EditorState.create({ doc: text, extensions: [Y.yamlDocuments()] });
  const mid = text.indexOf("name: pod-200,");
  state = viewAndParse(state, mid, mid + 3000);
  // The first document parsed after the new state's 3,000 characters
  // follows a placeholder. A character before its "---" joins it to the
  // document before, out of view.
  const doc = near(Y.syntaxTree(state), 4000, mid).find((n) => n.startsWith("Document "));
  const at = Number(doc.split(" ")[1].split("-")[0]);
  assert.ok(at > 4000 && at < mid - 10000 && text.startsWith("---", at), doc);
  state = state.update({ changes: { from: at, insert: "x" } }).state;
  state = viewAndParse(state, at, at + 500);
  const next = state.doc.toString();
  assert.deepEqual(near(Y.syntaxTree(state), at, at + 500), near(Y.yamlStream.parser.parse(next), at, at + 500));
});

// Compared with the stream parser's own fresh parse: after random edits a
// text can split where @lezer/yaml's whole parse does not.
test("with the view anywhere, each edit parses as a fresh parse in view and whole when asked", () => {
  let seed = 11;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const inserts = ["x", "\n", "---\n", "\n---", "- a\n", ": ", "%", "#", "  "];
  let state = Y.EditorState.create({ doc: cluster(40, 200), extensions: [Y.yamlDocuments()] });
  for (let step = 0; step < 120; step++) {
    const len = state.doc.length;
    const from = rand(len + 1);
    const to = Math.min(len, from + (rand(3) === 0 ? rand(40) : 0));
    const insert = to > from && rand(2) === 0 ? "" : inserts[rand(inserts.length)];
    state = state.update({ changes: { from, to, insert } }).state;
    const vf = rand(state.doc.length + 1);
    const vt = Math.min(state.doc.length, vf + 500 + rand(4000));
    state = viewAndParse(state, vf, vt);
    const text = state.doc.toString();
    const fresh = Y.yamlStream.parser.parse(text);
    const at = `step ${step}: ${JSON.stringify(insert)} at ${from}-${to}, view ${vf}-${vt}`;
    assert.deepEqual(near(Y.syntaxTree(state), vf, vt), near(fresh, vf, vt), at);
    if (step % 20 === 19) assert.deepEqual(nodes(Y.ensureSyntaxTree(state, text.length, 1e9)), nodes(fresh), at);
  }
});
