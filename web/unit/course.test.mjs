// Unit tests of what the playground makes of a lesson named in its address
// (web/src/course.ts) and of the names it suggests for one the course does
// not have (web/src/similar.ts, which the embed uses for ?example= too).
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let C, S;
before(async () => {
  C = await loadTS("course.ts");
  S = await loadTS("similar.ts");
});

test("the lesson an address names, known to the course or not", () => {
  assert.equal(C.lessonAsked("?lesson=topology-spread"), "topology-spread");
  assert.equal(C.lessonFromURL("?lesson=topology-spread"), null, "not in the course");
  assert.equal(C.lessonAsked("?lesson=topology-spread-two-constraints&lang=id"), "topology-spread-two-constraints");
  assert.equal(C.lessonFromURL("?lesson=topology-spread-two-constraints&lang=id"), "topology-spread-two-constraints");
  // example=, the embed's word for the same file, names it too, and wins.
  assert.equal(C.lessonFromURL("?example=preemption-basic&lang=id"), "preemption-basic");
  assert.equal(C.lessonAsked("?lesson=preemption-basic&example=preemption-basc"), "preemption-basc");
  assert.equal(C.lessonAsked("?example=&lesson=preemption-basic"), "preemption-basic");
  for (const search of ["", "?lang=id", "?lesson=", "?lesson", "?example="]) {
    assert.equal(C.lessonAsked(search), null, search);
    assert.equal(C.lessonFromURL(search), null, search);
  }
});

test("the address without its lesson keeps the rest", () => {
  assert.equal(C.withoutLesson("http://h/x/index.html?lesson=topology-spread&lang=zh-CN#v1.abc"), "/x/index.html?lang=zh-CN#v1.abc");
  assert.equal(C.withoutLesson("http://h/index.html?lesson=a%20b"), "/index.html");
  assert.equal(C.withoutLesson("http://h/?lang=id&lesson=x&lesson=y"), "/?lang=id");
  assert.equal(C.withoutLesson("http://h/?example=x&lang=id&lesson=y#v1.a"), "/?lang=id#v1.a");
});

test("similar names share a word of four letters or more, the closest first", () => {
  const spread = C.order.filter((n) => n.startsWith("topology-spread-"));
  assert.ok(spread.length > 3);
  const closest = [...spread].sort((a, b) => a.length - b.length || spread.indexOf(a) - spread.indexOf(b));
  assert.deepEqual(S.similarNames("topology-spread", C.order), closest.slice(0, 3), "the shortest add the fewest letters");
  assert.equal(S.similarNames("preemption-basc", C.order)[0], "preemption-basic", "a typo, ahead of the course's order");
  assert.equal(S.similarNames("Preemtion-Basic", C.order)[0], "preemption-basic", "a typo in each word, in capitals");
  assert.deepEqual(S.similarNames("topolgy-sprad", C.order), closest.slice(0, 3), "a letter missing from each word");
  assert.deepEqual(S.similarNames("no-such-lesson", C.order), []);
  assert.deepEqual(S.similarNames("pod", C.order), [], "no word long enough");
  assert.equal(S.similarNames("topology-spread", C.order, 10).length, 10);
});

// The names are listed as the page's language writes a list, not with a
// comma in every language: Chinese separates them with "、".
test("a list of names in the page's language", () => {
  const three = ["topology-spread-one-constraint", "topology-spread-two-constraints", "topology-spread-scores"];
  const [a, b, c] = three;
  assert.equal(S.joinNames(three, "en", "or"), `${a}, ${b}, or ${c}`);
  assert.equal(S.joinNames(three, "id", "or"), `${a}, ${b}, atau ${c}`);
  assert.equal(S.joinNames(three, "zh-CN", "or"), `${a}、${b}或${c}`);
  assert.equal(S.joinNames([a, b], "en", "or"), `${a} or ${b}`);
  assert.equal(S.joinNames([a], "zh-CN", "or"), a);
  assert.equal(S.joinNames(three, "en", "plain"), `${a}, ${b}, ${c}`);
  assert.equal(S.joinNames(three, "id", "plain"), `${a}, ${b}, ${c}`);
  assert.equal(S.joinNames(three, "zh-CN", "plain"), `${a}、${b}、${c}`);
  // In pieces (the playground's names are links): every name, in order,
  // and the language's separators between them.
  const parts = S.listParts(three, "zh-CN", "plain");
  assert.deepEqual(parts.filter((p) => p.name).map((p) => p.text), three);
  assert.deepEqual(parts.filter((p) => !p.name).map((p) => p.text), ["、", "、"]);
  assert.equal(parts.map((p) => p.text).join(""), S.joinNames(three, "zh-CN", "plain"));
  assert.deepEqual(S.listParts([a, b], "en", "plain").map((p) => p.text), [a, ", ", b]);
  assert.deepEqual(S.listParts([], "en", "plain"), []);
});
