// A YAML parser for the editor that parses a stream one document at a time
// and, after an edit, reuses every document the edit did not touch.
//
// Why: @lezer/yaml's incremental parse reuses nothing (its top-level nodes
// carry a context hash the top-level parse state never has, so strict
// context tracking refuses them), so each keystroke in a 5,000-document
// scenario reparsed the whole stream: about 20 ms inside the keystroke and
// hundreds of milliseconds of background slices after it. A line starting
// with "---" always begins a new document in YAML, so the stream splits
// there without reading anything else, and each document parses alone.
//
// In the editor, documents away from the view are not parsed at all: an
// empty placeholder stands in for each run of them, and CodeMirror parses
// them when they scroll into view (ParseContext.skipUntilInView). Without
// this, the first keystrokes after a large text is set spent up to 20 ms
// each parsing text out of view toward the end of the last partial parse.
import { Language, LanguageSupport, ParseContext } from "@codemirror/language";
import { yamlLanguage } from "@codemirror/lang-yaml";
import { NodeType, Parser, Tree, type Input, type PartialParse, type TreeFragment } from "@lezer/common";

// Units: the documents of one parsed stream, as the stream tree's own
// children before balancing. A unit ends where the next one starts, the
// last where the stream tree ends: at the end of the text, or where a
// parse stopped (the editor keeps such a tree as a fragment open at its
// end, which reuse refuses below).
interface Units {
  starts: number[];
  trees: Tree[];
}

// How much text a scan for the next document reads at a time: 1 KiB at
// first (most documents are shorter, and the editor's text copies what is
// read), doubling up to 64 KiB.
const firstScan = 1 << 10;
const maxScan = 1 << 16;

// How far outside the editor's viewport documents are still parsed, in
// characters: text scrolled a little is already highlighted.
const viewMargin = 10_000;

// placeholders are the trees standing in for documents the editor skipped.
const placeholders = new WeakSet<Tree>();

export class DocumentStreamParser extends Parser {
  // units maps each stream tree this parser returned to its documents.
  private readonly units = new WeakMap<Tree, Units>();

  // inner parses one document; its top node type names the stream.
  constructor(readonly inner: Parser & { topNode: NodeType }) {
    super();
  }

  createParse(input: Input, fragments: readonly TreeFragment[], ranges: readonly { from: number; to: number }[]): PartialParse {
    // Only whole-text parses are split; anything else (a nested range) is
    // the inner parser's.
    if (ranges.length !== 1 || ranges[0].from !== 0 || ranges[0].to !== input.length) {
      return this.inner.startParse(input, fragments, ranges);
    }
    return new StreamParse(this, input, fragments);
  }

  /** @internal */
  unitsOf(tree: Tree): Units | undefined {
    return this.units.get(tree);
  }

  /** @internal */
  stream(units: Units, length: number): Tree {
    const tree = new Tree(this.inner.topNode, units.trees, units.starts, length).balance();
    this.units.set(tree, units);
    return tree;
  }
}

// isBoundary reports whether the line starting at s[i] begins a document:
// "---" then a space, tab, line break or the end of the text.
function isBoundary(s: string, i: number, atEnd: boolean): boolean {
  if (s.charCodeAt(i) !== 45 || s.charCodeAt(i + 1) !== 45 || s.charCodeAt(i + 2) !== 45) return false;
  if (i + 3 >= s.length) return atEnd;
  const c = s.charCodeAt(i + 3);
  return c === 32 || c === 9 || c === 10 || c === 13;
}

class StreamParse implements PartialParse {
  private readonly units: Units = { starts: [], trees: [] };
  // pos: where the next document starts (a boundary, or the text's end).
  private pos = 0;
  // The document being parsed: where it starts and ends, and its parse.
  private unitFrom = 0;
  private unitTo = 0;
  private unitParse: PartialParse | null = null;
  // Which fragment reuse looks at next (fragments are in document order).
  private fragment = 0;
  stoppedAt: number | null = null;

  constructor(
    private readonly parser: DocumentStreamParser,
    private readonly input: Input,
    private readonly fragments: readonly TreeFragment[],
  ) {}

  get parsedPos(): number {
    return this.unitParse ? this.unitFrom + this.unitParse.parsedPos : this.pos;
  }

  stopAt(pos: number): void {
    this.stoppedAt = pos;
    if (this.unitParse && pos < this.unitTo) this.unitParse.stopAt(Math.max(pos - this.unitFrom, this.unitParse.parsedPos));
  }

  advance(): Tree | null {
    if (this.unitParse) {
      const tree = this.unitParse.advance();
      if (!tree) return null;
      const cut = this.stoppedAt !== null && this.stoppedAt < this.unitTo;
      this.push(this.unitFrom, tree, cut ? Math.min(this.unitFrom + tree.length, this.unitTo) : this.unitTo);
      this.unitParse = null;
      return cut ? this.finish() : null;
    }
    const stop = Math.min(this.stoppedAt ?? this.input.length, this.input.length);
    // Reusing a document costs a lookup, so a run of them goes in one step.
    while (this.pos < stop && this.reuse()) {}
    if (this.pos >= stop) return this.finish();
    const to = this.nextBoundary(this.pos);
    if (this.skip(to, stop)) return null;
    this.unitFrom = this.pos;
    this.unitTo = to;
    this.unitParse = this.parser.inner.startParse(this.input.read(this.unitFrom, this.unitTo));
    if (this.stoppedAt !== null && this.stoppedAt < this.unitTo) this.unitParse.stopAt(this.stoppedAt - this.unitFrom);
    return null;
  }

  private push(from: number, tree: Tree, to: number): void {
    // The document's children, without its own Stream node: the stream
    // holds them as an anonymous node, so the tree reads as one stream.
    this.units.starts.push(from);
    this.units.trees.push(new Tree(NodeType.none, tree.children, tree.positions, to - from));
    this.pos = to;
  }

  // skip stands one placeholder in for the documents from pos (the first
  // ending at next) that lie wholly outside the editor's viewport and its
  // margin, and has the editor parse them again when they come into view.
  // Past the view, it skips to the text's end whatever the stop: a tree may
  // run past its stop, and a later parse reuses that placeholder instead of
  // skipping again.
  private skip(next: number, stop: number): boolean {
    const cx = ParseContext.get();
    if (!cx) return false;
    const before = cx.viewport.from - viewMargin;
    let end = this.input.length;
    if (this.pos < cx.viewport.to + viewMargin) {
      if (next > before) return false;
      for (end = next; end < stop && (next = this.nextBoundary(end)) <= before; ) end = next;
      end = Math.min(end, stop);
    }
    cx.skipUntilInView(this.pos, end);
    const tree = new Tree(NodeType.none, [], [], end - this.pos);
    placeholders.add(tree);
    this.units.starts.push(this.pos);
    this.units.trees.push(tree);
    this.pos = end;
    return true;
  }

  // finish returns the stream so far: the whole text, or up to where the
  // parse stopped.
  private finish(): Tree {
    return this.parser.stream(this.units, this.pos);
  }

  // reuse takes the document at pos from an unchanged fragment: its text
  // and the boundary after it (or the text's end) are unchanged, so it
  // still ends where it did and parses as it did.
  private reuse(): boolean {
    const pos = this.pos;
    while (this.fragment < this.fragments.length && this.fragments[this.fragment].to <= pos) this.fragment++;
    const f = this.fragments[this.fragment];
    if (!f || f.from > pos) return false;
    const old = this.parser.unitsOf(f.tree);
    if (!old) return false;
    const at = pos + f.offset;
    const i = search(old.starts, at);
    if (i < 0) return false;
    const last = i === old.starts.length - 1;
    const to = (last ? f.tree.length : old.starts[i + 1]) - f.offset;
    const tree = old.trees[i];
    // A placeholder is still out of view: CodeMirror cuts a skipped range's
    // fragments when it comes into view (or when the whole tree is asked
    // for). Past the view it may end past the stop, in an open fragment.
    const skipped = placeholders.has(tree);
    const followed = to + 4 <= f.to || (last && to === f.to && (skipped || !f.openEnd) && to === this.input.length);
    if (!followed || (!skipped && this.stoppedAt !== null && to > this.stoppedAt)) return false;
    this.units.starts.push(pos);
    this.units.trees.push(tree);
    this.pos = to;
    return true;
  }

  // nextBoundary finds where the document after the one starting at from
  // begins, or the text's end. A "---" after a directive ("%YAML 1.2")
  // ends the directives of its own document, so it does not split.
  private nextBoundary(from: number): number {
    const end = this.input.length;
    let directive = this.input.read(from, Math.min(end, from + 1)) === "%";
    // A document starts after a line break; the one at from already has.
    let pos = from;
    for (let size = firstScan; pos < end; size = Math.min(2 * size, maxScan)) {
      // Chunks overlap by four characters so "\n---x" is read whole; a
      // line break in the overlap is the next chunk's.
      const chunkEnd = Math.min(end, pos + size + 4);
      const s = this.input.read(pos, chunkEnd);
      const atEnd = chunkEnd === end;
      for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) {
        if (!atEnd && i >= size) break;
        if (s.charCodeAt(i + 1) === 37) directive = true;
        else if (isBoundary(s, i + 1, atEnd)) {
          if (!directive) return pos + i + 1;
          directive = false;
        }
      }
      if (atEnd) break;
      pos += size;
    }
    return end;
  }
}

// search finds value in ascending starts, or -1.
function search(starts: number[], value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] === value) return mid;
    if (starts[mid] < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// yamlStream is @codemirror/lang-yaml's language (its highlighting,
// indentation, folding and language data) over the per-document parser.
export const yamlStream = new Language(yamlLanguage.data, new DocumentStreamParser(yamlLanguage.parser), [], "yaml");

export function yamlDocuments(): LanguageSupport {
  return new LanguageSupport(yamlStream);
}
