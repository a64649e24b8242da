// Unit tests of web/src/embed-origins.ts: what origins= allows, and that a
// malformed entry is left out instead of thrown.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let M;
before(async () => {
  M = await loadTS("embed-origins.ts");
});

test("origins= keeps origins and * and leaves out the rest", () => {
  const cases = [
    ["", [], []],
    ["*", ["*"], []],
    ["https://docs.example.org", ["https://docs.example.org"], []],
    [" https://docs.example.org/ , http://127.0.0.1:8080", ["https://docs.example.org", "http://127.0.0.1:8080"], []],
    ["https://DOCS.example.org:443", ["https://docs.example.org"], []],
    ["https://docs.example.org/path", [], ["https://docs.example.org/path"]],
    ["https://docs.example.org?x=1,https://a.example#f", [], ["https://docs.example.org?x=1", "https://a.example#f"]],
    ["not an origin,javascript:alert(1),ftp://files.example", [], ["not an origin", "javascript:alert(1)", "ftp://files.example"]],
    ["https://user:pw@a.example", [], ["https://user:pw@a.example"]],
    ["%%%,https://ok.example", ["https://ok.example"], ["%%%"]],
  ];
  for (const [param, allowed, ignored] of cases) {
    assert.deepEqual(M.parseOrigins(param), { allowed, ignored }, param);
  }
});
