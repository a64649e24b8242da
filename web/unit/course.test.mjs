// Unit tests of the names suggested for a lesson or example the address
// names but the site does not have (web/src/similar.ts; the embed's
// ?example=), over the course's lessons (web/src/course.ts).
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { loadTS } from "./load.mjs";

let C, S;
before(async () => {
  C = await loadTS("course.ts");
  S = await loadTS("similar.ts");
});

test("similar names share a word of four letters or more, in the course's order", () => {
  const spread = C.order.filter((n) => n.startsWith("topology-spread-"));
  assert.ok(spread.length > 3);
  assert.deepEqual(S.similarNames("topology-spread", C.order), spread.slice(0, 3));
  assert.deepEqual(S.similarNames("Preemtion-Basic", C.order), ["preemption-basic"], "a typo, in capitals");
  assert.deepEqual(S.similarNames("no-such-lesson", C.order), []);
  assert.deepEqual(S.similarNames("pod", C.order), [], "no word long enough");
  assert.equal(S.similarNames("topology-spread", C.order, 10).length, 10);
});
