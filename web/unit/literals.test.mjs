// Every word the page shows comes from a catalog (web/locales): this test
// reads web/src and fails on an English literal handed to the DOM (text,
// a title, an accessible name, a notice), so that a string added without a
// catalog key fails here rather than reaching a learner in zh-CN or id.
// Engine facts pass through as values, never as literals, so they are not
// seen; the few literals that are not words to translate are listed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { web } from "./load.mjs";

// Kept as written: upstream's event reason, shown as kube-scheduler names
// it, and a file's extension.
const kept = new Set(["FailedScheduling", "yaml"]);
// Files left out, and why: the editor's completions are matched against
// the YAML being typed (Kubernetes' English keywords) and carry upstream's
// field documentation; the embed loader runs on the host's page, without
// catalogs, and names its frame after the scenario.
const skipped = new Set(["schema-complete.ts", "embed-loader.ts"]);

// A string or template literal.
const lit = String.raw`"(?:[^"\\\n]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60`;
const litRe = new RegExp(lit, "g");
// A catalog key ("details.status", `explain.view.${view}`), as handed to t().
const key = /^["\x60][a-z]+(?:\.(?:[A-Za-z]+|\$\{\w+\}))+["\x60]$/;
// A literal compared with (st === "pause") is a value, not text.
const compared = new RegExp(String.raw`(?:[=!]==?\s*(?:` + lit + String.raw`))|(?:(?:` + lit + String.raw`)\s*[=!]==?)`, "g");
// Each sink captures what it hands to the DOM: the rest of the statement,
// or for el() its text argument.
const sinks = [
  // el(tag, class, text)
  new RegExp(String.raw`\bel\(\s*"[\w-]+"\s*,\s*[^,()]+,\s*(` + lit + ")", "g"),
  // element.textContent / title / placeholder = text
  /\.(?:textContent|title|placeholder|innerText)\s*=\s*([^;\n]*)/g,
  // accessible names, values and titles set by name
  /setAttribute\(\s*"(?:aria-label|aria-valuetext|aria-description|aria-roledescription|title|placeholder)"\s*,\s*([^;\n]*)/g,
  // the share banner's title and text, and a button's label
  /\bnotify\(\s*"\w+"\s*,\s*([^;\n]*)/g,
  new RegExp(String.raw`\blabel:\s*(` + lit + ")", "g"),
  // a text node
  new RegExp(String.raw`createTextNode\(\s*(` + lit + ")", "g"),
];

// words is what a literal says once its ${...} parts are taken out.
function words(literal) {
  const body = literal.slice(1, -1).replace(/\$\{(?:[^{}]|\{[^{}]*\})*\}/g, " ");
  return body.match(/[A-Za-z]{2,}(?:[ '-][A-Za-z]+)*/g) ?? [];
}

export function englishLiterals(src) {
  const found = [];
  for (const re of sinks) {
    for (const m of src.matchAll(re)) {
      for (const literal of m[1].replace(compared, " ").match(litRe) ?? []) {
        if (key.test(literal)) continue;
        if (words(literal).some((w) => !kept.has(w))) found.push(literal);
      }
    }
  }
  return found;
}

test("no English literal reaches the DOM from web/src", () => {
  const dir = join(web, "src");
  const problems = [];
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !skipped.has(f))) {
    for (const l of englishLiterals(readFileSync(join(dir, f), "utf8"))) problems.push(`${f}: ${l}`);
  }
  assert.deepEqual(problems, []);
});

test("the check finds what it is meant to", () => {
  assert.deepEqual(englishLiterals(`out.push(el("h3", undefined, "Volumes"));`), [`"Volumes"`]);
  assert.deepEqual(englishLiterals("b.title = `Jump to ${x}`;"), ["`Jump to ${x}`"]);
  assert.deepEqual(englishLiterals(`c.setAttribute("aria-label", "Cluster canvas");`), [`"Cluster canvas"`]);
  assert.deepEqual(englishLiterals(`notify("info", "Opened.", "")`), [`"Opened."`]);
  assert.deepEqual(englishLiterals(`e.textContent = ok ? "" : "Failed";`), [`"Failed"`]);
  assert.deepEqual(englishLiterals(`e.title = st === "pause" ? t("tl.pause") : "Play";`), [`"Play"`]);
  // Values, symbols and kept names pass.
  assert.deepEqual(englishLiterals("el(\"td\", undefined, `${n}`); b.textContent = \"×\"; el(\"div\", \"muted\", \"FailedScheduling\");"), []);
});
