// What yaml-docs.test.mjs needs, bundled with one copy of @lezer/common.
import { Language } from "@codemirror/language";
import { yamlLanguage } from "@codemirror/lang-yaml";
import { Parser, type Input, type PartialParse, type TreeFragment } from "@lezer/common";

export { TreeFragment } from "@lezer/common";
export { parser as wholeParser } from "@lezer/yaml";
export { EditorState } from "@codemirror/state";
export { ensureSyntaxTree, foldable, getIndentation, syntaxTree } from "@codemirror/language";
export { yamlDocuments, yamlStream } from "../src/yaml-docs";

// lang-yaml's language with its parser parsing the whole text afresh each
// time, the baseline: resumed after the editor stopped it, its parse can
// differ from a fresh one (a first comment lands in a BlockMapping).
class FreshParser extends Parser {
  createParse(input: Input, _fragments: readonly TreeFragment[], ranges: readonly { from: number; to: number }[]): PartialParse {
    return yamlLanguage.parser.startParse(input, [], ranges);
  }
}
export const freshYaml = new Language(yamlLanguage.data, new FreshParser(), [], "yaml");
