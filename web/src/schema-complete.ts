// Completion and hover from the scenario schema: a JSON Schema of exactly
// what the loader accepts, generated from its own tables
// (core/scenario/schema.go → web/src/generated/scenario-schema.json). The
// schema is fetched after the editor's first frame; until it is there
// completion and hover offer nothing.
//
// The glue reads the YAML around the cursor by indentation (the path of
// keys and list items from the document's root), follows the schema along
// that path (a document's kind picks its definition, as the loader does)
// and offers the keys not yet written, or the values of an enumerated
// field. codemirror-json-schema was tried first: it reads one document per
// editor and offers nothing on an empty line, which is where people ask.
import { snippetCompletion, type Completion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { hoverTooltip, type Tooltip } from "@codemirror/view";
import type { Text } from "@codemirror/state";

// Schema is the subset of JSON Schema the generator writes.
export interface Schema {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  allOf?: Schema[];
  if?: Schema;
  then?: Schema;
  required?: string[];
  definitions?: Record<string, Schema>;
  "x-schedplay"?: string;
}

interface Line {
  text: string;
  indent: number; // leading spaces
  dash: boolean; // a list item ("- ...")
  keyCol: number; // column of the key (after "- ")
  key: string | null; // the mapping key the line writes
  value: string; // what follows "key:" (trimmed, comments dropped)
  blank: boolean;
  marker: boolean; // "---" or "..."
}

const KEY = /^("[^"]*"|'[^']*'|[^\s:#'"{[\]][^:#]*?)\s*:(?:\s|$)/;

export function readLine(text: string): Line {
  const indent = text.length - text.trimStart().length;
  let rest = text.slice(indent);
  const marker = indent === 0 && /^(---|\.\.\.)(\s|$)/.test(text);
  const blank = rest === "" || rest.startsWith("#");
  let keyCol = indent;
  const dash = /^-(\s|$)/.test(rest);
  if (dash) {
    const after = rest.slice(1);
    const n = after.length - after.trimStart().length;
    keyCol = indent + 1 + n;
    rest = after.trimStart();
  }
  const m = KEY.exec(rest);
  const key = m ? m[1].replace(/^["']|["']$/g, "") : null;
  const value = m ? rest.slice(m[0].length).replace(/\s+#.*$/, "").trim() : "";
  return { text, indent, dash, keyCol, key, value, blank, marker };
}

// Where is the cursor: the path from the document's root to the mapping it
// is in, the keys already written there, and the key (or the value of
// which key) being typed.
export interface Place {
  path: string[]; // keys, "[]" for a list item
  kind: string; // the document's kind ("" when not written yet)
  plugin: string; // the name: beside an args: on the path (plugin args are typed by it)
  siblings: string[];
  valueOf: string | null; // typing the value of this key
  prefix: string; // the word typed so far
  from: number; // where the word starts (offset in the text)
}

// Doc is a text read line by line (rows from 0): the editor's document is
// read a few lines around the cursor, not copied and split whole at each
// keystroke (in a 1 MB scenario that took 30 to 60 ms a keystroke).
export interface Doc {
  lines: number;
  line(row: number): string;
  start(row: number): number; // offset of the row's first character
  rowAt(pos: number): number;
}

// textDoc reads a string as a Doc.
export function textDoc(text: string): Doc {
  const lines = text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  return {
    lines: lines.length,
    line: (r) => lines[r],
    start: (r) => starts[r],
    rowAt(pos) {
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= pos) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  };
}

// editorDoc reads CodeMirror's document as a Doc.
export function editorDoc(doc: Text): Doc {
  return {
    lines: doc.lines,
    line: (r) => doc.line(r + 1).text,
    start: (r) => doc.line(r + 1).from,
    rowAt: (pos) => doc.lineAt(pos).number - 1,
  };
}

const asDoc = (d: Doc | string): Doc => (typeof d === "string" ? textDoc(d) : d);

export function placeAt(text: Doc | string, pos: number): Place {
  const lines = asDoc(text);
  const row = lines.rowAt(pos);
  const lineStart = lines.start(row);
  const before = lines.line(row).slice(0, pos - lineStart);
  const word = /[\w./-]*$/.exec(before)![0];
  const from = pos - word.length;

  // The column the keys of the cursor's mapping start at, and the key
  // whose value is being typed.
  let valueOf: string | null = null;
  let col = before.length - word.length;
  const vm = /^(\s*(?:-\s+)*)("[^"]*"|'[^']*'|[^\s:#'"{[\]][^:#]*?)\s*:\s+[\w./"'-]*$/.exec(before);
  if (vm) {
    valueOf = vm[2].replace(/^["']|["']$/g, "");
    col = vm[1].length;
  }
  const cur = readLine(before);
  const path: string[] = [];
  let plugin = "";
  const pushKey = (r: number, l: Line) => {
    path.push(l.key!);
    if (l.key === "args" && !plugin) plugin = siblingValue(lines, r, l.keyCol, "name");
  };
  let item = cur.dash && cur.keyCol === col; // the cursor's mapping is a list item begun on this line
  let listCol = cur.indent;
  if (item) path.push("[]");
  for (let r = row - 1; r >= 0; r--) {
    const l = readLine(lines.line(r));
    if (l.marker) break;
    if (l.blank) continue;
    if (item) {
      // The key holding the list: at or left of its dashes (another
      // item's dash line is not it).
      if (l.key !== null && l.keyCol <= listCol && !(l.dash && l.indent === listCol)) {
        pushKey(r, l);
        if (l.dash) {
          path.push("[]");
          listCol = l.indent;
        } else {
          item = false;
          col = l.keyCol;
        }
      } else if (l.indent < listCol) break;
      continue;
    }
    if (l.dash && l.keyCol === col) {
      path.push("[]");
      item = true;
      listCol = l.indent;
    } else if (l.key !== null && l.keyCol < col) {
      pushKey(r, l);
      if (l.dash) {
        path.push("[]");
        item = true;
        listCol = l.indent;
      } else col = l.keyCol;
    } else if (l.indent < col && !l.dash) break;
  }
  path.reverse();
  return { path, kind: documentKind(lines, row), plugin, siblings: siblingKeys(lines, row, vm ? vm[1].length : before.length - word.length), valueOf, prefix: word, from };
}

// siblingKeys are the keys written at column col in the mapping around row.
function siblingKeys(lines: Doc, row: number, col: number): string[] {
  const keys: string[] = [];
  for (let r = row - 1; r >= 0; r--) {
    const l = readLine(lines.line(r));
    if (l.marker || (!l.blank && l.keyCol < col)) break;
    if (l.blank || l.keyCol !== col) continue;
    if (l.key !== null) keys.push(l.key);
    if (l.dash) break; // the item starts here
  }
  for (let r = row + 1; r < lines.lines; r++) {
    const l = readLine(lines.line(r));
    if (l.marker || (!l.blank && l.keyCol < col) || (l.dash && l.keyCol === col)) break;
    if (!l.blank && l.keyCol === col && l.key !== null) keys.push(l.key);
  }
  return keys;
}

// siblingValue is the value of key in the mapping whose keys sit at col
// around row.
function siblingValue(lines: Doc, row: number, col: number, key: string): string {
  for (const dir of [-1, 1]) {
    for (let r = row; r >= 0 && r < lines.lines; r += dir) {
      const l = readLine(lines.line(r));
      if (r !== row && (l.marker || (!l.blank && l.keyCol < col) || (dir > 0 && l.dash && l.keyCol === col))) break;
      if (l.keyCol === col && l.key === key) return l.value.replace(/^["']|["']$/g, "");
      if (dir < 0 && l.dash && l.keyCol === col) break;
    }
  }
  return "";
}

// documentKind is the top-level kind: of the document holding row.
function documentKind(lines: Doc, row: number): string {
  let start = row;
  while (start > 0 && !readLine(lines.line(start - 1)).marker) start--;
  for (let r = start; r < lines.lines; r++) {
    const l = readLine(lines.line(r));
    if (r > start && l.marker) break;
    if (r !== row && l.indent === 0 && !l.dash && l.key === "kind") return l.value.replace(/^["']|["']$/g, "");
  }
  return "";
}

// ---- the schema ----

export class SchemaIndex {
  constructor(private root: Schema) {}

  private deref(s: Schema | undefined): Schema {
    let cur = s ?? {};
    for (let i = 0; cur.$ref && i < 20; i++) {
      cur = this.root.definitions?.[cur.$ref.replace("#/definitions/", "")] ?? {};
    }
    return cur;
  }

  // merged is s with its $ref followed and the allOf cases that apply
  // (by kind, or a plugin's name) folded in.
  merged(s: Schema | undefined, kind: string, name = ""): Schema {
    const base = this.deref(s);
    if (base.allOf === undefined) return base;
    const out: Schema = { ...base, properties: { ...(base.properties ?? {}) } };
    for (const c of base.allOf) {
      let then: Schema | undefined;
      if (c.if) {
        const [field, cond] = Object.entries(c.if.properties ?? {})[0] ?? [];
        const want = field === "kind" ? kind : name;
        if (cond && cond.const === want) then = c.then;
      } else then = c;
      if (!then) continue;
      const t = this.merged(then, kind, name);
      Object.assign(out.properties!, t.properties ?? {});
      if (t.description && !out.description) out.description = t.description;
    }
    return out;
  }

  // at follows path from the root for a document of kind.
  at(path: string[], kind: string, plugin = ""): Schema | null {
    let s = this.merged(this.root, kind);
    for (const p of path) {
      if (p === "[]") {
        if (!s.items) return null;
        s = this.merged(s.items, kind, plugin);
        continue;
      }
      const next = s.properties?.[p] ?? (typeof s.additionalProperties === "object" ? s.additionalProperties : undefined);
      if (!next) return null;
      // items of a List are documents of their own (kind unknown here).
      s = this.merged(next, p === "items" && kind === "List" ? "" : kind, plugin);
    }
    return s;
  }

  // field is the schema of key inside the mapping at path, with its own
  // description kept (a $ref's target has none of the field's).
  field(path: string[], kind: string, key: string, plugin = ""): Schema | null {
    const parent = this.at(path, kind, plugin);
    const raw = parent?.properties?.[key];
    if (!raw) return null;
    const m = this.merged(raw, kind, plugin);
    return { ...m, description: raw.description ?? this.deref(raw).description ?? m.description };
  }
}

function kindOf(s: Schema): string {
  if (s["x-schedplay"]) return s["x-schedplay"];
  const t = Array.isArray(s.type) ? s.type.join(" or ") : s.type;
  if (s.enum) return s.enum.join(" | ");
  if (t === "array") return "list";
  if (t === "object") return s.properties ? "mapping" : "map";
  return t ?? "";
}

function info(text: string): () => Node {
  return () => {
    const d = document.createElement("div");
    d.className = "cm-schema-doc";
    d.textContent = text;
    return d;
  };
}

// ---- snippets for new objects, offered at a document's top ----

const SNIPPETS: Array<[string, string, string]> = [
  ["Node", "A node with a zone, allocatable resources and room for pods", "apiVersion: v1\nkind: Node\nmetadata:\n  name: ${node-a}\n  labels:\n    topology.kubernetes.io/zone: ${zone-a}\nstatus:\n  allocatable: {cpu: \"${4}\", memory: ${8Gi}, pods: \"${110}\"}\n"],
  ["Pod", "A pod with one container and its requests", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${web}\n  labels: {app: ${web}}\nspec:\n  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.10\n    resources:\n      requests: {cpu: ${500m}, memory: ${256Mi}}\n"],
  ["PriorityClass", "A priority class pods name in priorityClassName", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: ${high}\nvalue: ${1000}\npreemptionPolicy: ${PreemptLowerPriority}\n"],
  ["PodDisruptionBudget", "A PDB that keeps some pods of an app running", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${web-pdb}\nspec:\n  minAvailable: ${1}\n  selector:\n    matchLabels: {app: ${web}}\n"],
];
const SPREAD = "- maxSkew: ${1}\n  topologyKey: ${topology.kubernetes.io/zone}\n  whenUnsatisfiable: ${DoNotSchedule}\n  labelSelector:\n    matchLabels: {app: ${web}}";

// ---- the CodeMirror side ----

let index: SchemaIndex | null = null;

// setSchema hands the fetched schema to completion and hover.
export function setSchema(s: Schema): void {
  index = new SchemaIndex(s);
}

export function completeAt(text: Doc | string, pos: number, explicit: boolean): CompletionResult | null {
  if (!index) return null;
  const place = placeAt(text, pos);
  if (!explicit && place.prefix === "" && place.valueOf === null) return null;
  const options: Completion[] = [];
  if (place.valueOf !== null) {
    const s = index.field(place.path, place.kind, place.valueOf, place.plugin);
    let values = s?.enum ?? (s?.const !== undefined ? [s.const] : []);
    if (place.path.length === 0 && place.valueOf === "apiVersion" && place.kind) {
      values = index.at([], place.kind)?.properties?.apiVersion?.enum ?? values;
    }
    for (const v of values) options.push({ label: String(v), type: "enum", detail: place.valueOf });
    if (options.length === 0) return null;
  } else {
    const s = index.at(place.path, place.kind, place.plugin);
    if (!s?.properties) return null;
    const have = new Set(place.siblings);
    for (const [k, raw] of Object.entries(s.properties)) {
      if (have.has(k)) continue;
      const f = index.field(place.path, place.kind, k, place.plugin)!;
      const d = raw.description ?? f.description ?? "";
      const ignored = f["x-schedplay"] === "ignored";
      options.push({ label: k, type: "property", detail: kindOf(f), info: d ? info(d) : undefined, apply: `${k}: `, boost: ignored ? -10 : f["x-schedplay"] ? -5 : 0 });
    }
    if (place.path.length === 0 && place.siblings.length === 0) {
      for (const [k, d, body] of SNIPPETS) options.push(snippetCompletion(body, { label: `new ${k}`, detail: "snippet", info: d, type: "text", boost: -1 }));
    }
    if (place.path.length === 2 && place.path[0] === "spec" && place.path[1] === "topologySpreadConstraints" && place.kind === "Pod") {
      options.push(snippetCompletion(SPREAD, { label: "new spread constraint", detail: "snippet", type: "text" }));
    }
  }
  return { from: place.from, options, validFor: /^[\w./-]*$/ };
}

export function scenarioCompletion(ctx: CompletionContext): CompletionResult | null {
  return completeAt(editorDoc(ctx.state.doc), ctx.pos, ctx.explicit);
}

// describeAt is the hover text for the key at pos in text, and its range.
export function describeAt(text: Doc | string, pos: number): { from: number; to: number; text: string } | null {
  if (!index) return null;
  const doc = asDoc(text);
  const row = doc.rowAt(pos);
  const start = doc.start(row);
  const l = readLine(doc.line(row));
  if (l.key === null) return null;
  const from = start + l.keyCol;
  const to = from + l.key.length;
  if (pos < from || pos > to) return null;
  const place = placeAt(doc, from);
  const s = index.field(place.path, place.kind, l.key, place.plugin);
  if (!s) return null;
  const what = kindOf(s);
  return { from, to, text: `${l.key}${what ? ` (${what})` : ""}\n\n${s.description ?? "No description."}` };
}

export const scenarioHover = hoverTooltip((view, pos): Tooltip | null => {
  const d = describeAt(editorDoc(view.state.doc), pos);
  if (!d) return null;
  return {
    pos: d.from,
    end: d.to,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = "cm-schema-hover";
      dom.textContent = d.text;
      return { dom };
    },
  };
});
