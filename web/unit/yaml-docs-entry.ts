// What yaml-docs.test.mjs needs, bundled with one copy of @lezer/common.
export { TreeFragment } from "@lezer/common";
export { parser as wholeParser } from "@lezer/yaml";
export { yamlLanguage } from "@codemirror/lang-yaml";
export { EditorState } from "@codemirror/state";
export { ensureSyntaxTree, foldable, getIndentation } from "@codemirror/language";
export { yamlDocuments, yamlStream } from "../src/yaml-docs";
