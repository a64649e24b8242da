// What yaml-docs.test.mjs needs, bundled with one copy of @lezer/common.
import { Language } from "@codemirror/language";
import { yamlLanguage } from "@codemirror/lang-yaml";
import { Parser, type Input, type PartialParse, type TreeFragment } from "@lezer/common";

export { TreeFragment } from "@lezer/common";
export { parser as wholeParser } from "@lezer/yaml";
export { EditorState } from "@codemirror/state";
export { Language, ensureSyntaxTree, foldable, getIndentation, syntaxTree } from "@codemirror/language";
export { yamlDocuments, yamlStream } from "../src/yaml-docs";
import { DocumentStreamParser } from "../src/yaml-docs";

// The editor's language with a parser that counts the documents it parses.
export function countingYaml(): { language: Language; parsed: () => number } {
  let n = 0;
  const inner = yamlLanguage.parser;
  class Counting extends Parser {
    readonly topNode = inner.topNode;
    createParse(input: Input, fragments: readonly TreeFragment[], ranges: readonly { from: number; to: number }[]): PartialParse {
      n++;
      return inner.startParse(input, fragments, ranges);
    }
  }
  const language = new Language(yamlLanguage.data, new DocumentStreamParser(new Counting()), [], "yaml");
  return { language, parsed: () => n };
}

// lang-yaml's language with its parser parsing the whole text afresh each
// time, the baseline: resumed after the editor stopped it, its parse can
// differ from a fresh one (a first comment lands in a BlockMapping).
class FreshParser extends Parser {
  createParse(input: Input, _fragments: readonly TreeFragment[], ranges: readonly { from: number; to: number }[]): PartialParse {
    return yamlLanguage.parser.startParse(input, [], ranges);
  }
}
export const freshYaml = new Language(yamlLanguage.data, new FreshParser(), [], "yaml");
