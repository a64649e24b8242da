// Unit tests of what a hostile link or embed address can do to the page:
// a link that inflates past the limit is refused without throwing, and a
// link's text becomes the draft only once it has loaded (a bad origins=
// entry: embed-origins.test.mjs).
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { deflateSync } from "fflate";
import { loadTS } from "./load.mjs";

let P, D;
before(async () => {
  P = await loadTS("permalink.ts");
  D = await loadTS("drafts.ts");
});

// bomb is a v1 link whose header is valid and whose text is n bytes of one
// character, compressed without the link's dictionary would not matter:
// the decoder must stop before holding it all.
function bomb(n) {
  const text = "a".repeat(n);
  const head = JSON.stringify({ e: "v1.36", s: 0, n, c: "00000000" }) + "\n";
  return P.PREFIX + P.base64url(deflateSync(new TextEncoder().encode(head + text), { level: 9 }));
}

describe("link decoding limits", () => {
  test("a link inflating past the limit is refused, with nothing recovered", () => {
    const frag = bomb(64 << 20); // 64 MiB of text in a link of about 90 KB
    assert.ok(frag.length < 200_000, `the bomb is ${frag.length} characters`);
    const d = P.decode(frag);
    assert.equal(d.ok, false);
    assert.match(d.error, /more than 4 MiB of scenario text/);
    assert.equal(d.recovered, "");
  });

  test("a link just under the limit is decoded as usual", () => {
    const text = "# filler\n".repeat(Math.floor((P.MAX_TEXT_BYTES - 100) / 9));
    const frag = P.encode({ yaml: text, seed: 0, engine: "v1.36", view: {} });
    const d = P.decode(frag);
    assert.ok(d.ok, d.error);
    assert.equal(d.link.yaml, text);
  });

  test("a damaged bomb and random bytes never throw", () => {
    const frag = bomb(16 << 20);
    for (const cut of [0.1, 0.5, 0.9]) {
      const d = P.decode(frag.slice(0, Math.floor(frag.length * cut)));
      assert.equal(d.ok, false);
    }
    let s = P.PREFIX;
    for (let i = 0; i < 5000; i++) s += "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[(i * 7919) % 64];
    assert.equal(P.decode(s).ok, false);
  });
});

describe("a link's text becomes the draft once it loaded", () => {
  test("held text is saved after a good load, dropped after a failed one", () => {
    const store = new D.MemoryStore();
    const drafts = new D.Drafts(store);
    drafts.save("# my draft");
    const pending = new D.PendingDraft(drafts);
    pending.hold("# from a link that kills the engine");
    assert.equal(drafts.current(), "# my draft", "holding does not save");
    pending.loaded(false);
    assert.equal(drafts.current(), "# my draft", "a failed load keeps the draft");
    pending.hold("# from a good link");
    pending.loaded(true);
    assert.equal(drafts.current(), "# from a good link");
    pending.loaded(true); // later loads do not touch the draft
    drafts.save("# edited");
    pending.loaded(true);
    assert.equal(drafts.current(), "# edited");
  });
});
