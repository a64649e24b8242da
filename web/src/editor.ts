// The CodeMirror YAML editor (a bundle of its own: see editor-api.ts). It
// hands its factory to the page that loaded it.
import { EditorView, basicSetup } from "codemirror";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { Compartment, EditorState, Text } from "@codemirror/state";
import { lintGutter, setDiagnostics, type Diagnostic as CMDiagnostic } from "@codemirror/lint";
import { oneDark } from "@codemirror/theme-one-dark";
import { autocompletion } from "@codemirror/autocomplete";
import { scenarioCompletion, scenarioHover, setSchema, type Schema } from "./schema-complete";
import { yamlDocuments } from "./yaml-docs";

// One Dark with comments, document markers and keys that read at 4.5:1 or
// more (its #7d8799 and #e06c75 are 4.3 and 4.4:1 on its background);
// this style comes first, so it wins for these tags.
const darkTheme = [
  syntaxHighlighting(HighlightStyle.define([
    { tag: [tags.comment, tags.meta], color: "#a3abb9" },
    { tag: [tags.name, tags.propertyName, tags.deleted, tags.character, tags.macroName], color: "#ef8a91" },
  ])),
  oneDark,
];
import type { Diagnostic } from "./bridge";
import { diagnosticMessage, type EditorFactory, type EditorInit, type TextEditor } from "./editor-api";

declare const SCHEMA_URL: string; // the hashed name of scenario-schema.json (build.mjs)

// toCM places a diagnostic at its line and column, clamped to the document.
function toCM(doc: Text, d: Diagnostic): CMDiagnostic {
  const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
  const from = Math.min(line.from + Math.max(d.col - 1, 0), line.to);
  const to = from < line.to ? line.to : from;
  return { from, to, severity: d.severity === "warning" ? "warning" : "error", message: diagnosticMessage(d), source: "schedplay" };
}

const create: EditorFactory = (parent: HTMLElement, init: EditorInit): TextEditor => {
  const themeSlot = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: init.text,
      extensions: [
        basicSetup,
        yamlDocuments(),
        lintGutter(),
        autocompletion({ override: [scenarioCompletion] }),
        scenarioHover,
        themeSlot.of(init.dark ? darkTheme : []),
        // A name for screen readers; tabindex makes the scroller's content
        // count as keyboard-reachable for checkers (it is: contenteditable).
        EditorView.contentAttributes.of({ "aria-label": "Scenario YAML", tabindex: "0" }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) init.onChange();
        }),
      ],
    }),
  });
  const ed: TextEditor = {
    text: () => view.state.doc.toString(),
    // The document's length counts a line break as one unit, as the text
    // joined with "\n" does.
    length: () => view.state.doc.length,
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setDiagnostics(diagnostics, error) {
      const doc = view.state.doc;
      const diags = diagnostics.map((d) => toCM(doc, d));
      if (error !== undefined && diags.length === 0) diags.push({ from: 0, to: 0, severity: "error", message: error, source: "schedplay" });
      view.dispatch(setDiagnostics(view.state, diags));
    },
    setDark(dark) {
      view.dispatch({ effects: themeSlot.reconfigure(dark ? darkTheme : []) });
    },
    reveal(line, col) {
      const doc = view.state.doc;
      const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
      const pos = Math.min(l.from + Math.max(col - 1, 0), l.to);
      view.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: "center", x: "center" }) });
      view.focus();
    },
  };
  ed.setDiagnostics(init.diagnostics, init.error);
  // For the end-to-end tests: the view, to place the cursor.
  (window as unknown as { __schedplayEditorView: EditorView }).__schedplayEditorView = view;
  // The schema for completion and hover comes after the editor's first frame.
  requestAnimationFrame(() => setTimeout(() => {
    fetch(SCHEMA_URL)
      .then((r) => r.json() as Promise<Schema>)
      .then((s) => {
        setSchema(s);
        (window as unknown as { __schedplaySchemaReady: boolean }).__schedplaySchemaReady = true;
      })
      .catch((e) => console.warn("schedplay: no completion, the schema did not load:", e));
  }, 0));
  return ed;
};

(window as unknown as { schedplayEditorReady?: (f: EditorFactory) => void }).schedplayEditorReady?.(create);
