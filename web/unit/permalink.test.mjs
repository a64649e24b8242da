// Unit tests of web/src/permalink.ts: exact round trips on every example and
// on generated text, link sizes, and damaged links.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "fflate";
import { loadTS, web } from "./load.mjs";

let P, DICT;
before(async () => {
  P = await loadTS("permalink.ts");
  DICT = await loadTS("permalink-dict.ts");
});

const examplesDir = join(web, "..", "examples");
const examples = readdirSync(examplesDir).filter((f) => f.endsWith(".yaml")).sort();
// A realistic published address: the size budget must hold on it.
const PAGE = "https://schedplay.github.io/schedplay/index.html";

// rng is a small seeded generator (mulberry32) so a failure is reproducible.
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// randomText makes well-formed Unicode (lone surrogates are not text and do
// not survive UTF-8), mixing YAML-ish ASCII, control characters, CRLF, BOMs,
// accents, CJK and astral characters.
function randomText(r, maxLen) {
  const pools = [
    () => "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\n---\n"[Math.floor(r() * 46)],
    () => String.fromCharCode(Math.floor(r() * 32)),
    () => ["\r\n", "\n", "\t", "\uFEFF", "\u2028", "#", "\"", "\\", "}"][Math.floor(r() * 9)],
    () => String.fromCharCode(0xa0 + Math.floor(r() * 0x700)),
    () => String.fromCharCode(0x4e00 + Math.floor(r() * 0x5000)),
    () => String.fromCodePoint(0x1f300 + Math.floor(r() * 0x300)),
    () => String.fromCodePoint(0x10000 + Math.floor(r() * 0xfffff)),
  ];
  const n = Math.floor(r() * maxLen);
  let s = "";
  for (let i = 0; i < n; i++) s += pools[Math.floor(r() * pools.length)]();
  return s;
}

const DICT_CRC = "406f2c7a";

describe("permalink", () => {
  test("every example round-trips byte for byte and its link fits in 2,000 characters", (t) => {
    const sizes = [];
    for (const f of examples) {
      const yaml = readFileSync(join(examplesDir, f), "utf8");
      const link = { yaml, seed: 0, engine: P.ENGINE_VERSION, view: { pod: "default/critical", t: 12.5, speed: 2 } };
      const built = P.linkFor(PAGE, link);
      const got = P.decode(new URL(built.url).hash);
      assert.ok(got.ok, `${f}: ${got.error}`);
      assert.deepEqual(got.link, link, f);
      assert.equal(Buffer.compare(Buffer.from(got.link.yaml, "utf8"), readFileSync(join(examplesDir, f))), 0, `${f} bytes`);
      assert.ok(built.fits, `${f}: the link takes ${built.length} characters, more than ${P.MAX_LINK_CHARS}`);
      sizes.push(`${f} ${Buffer.byteLength(yaml)} B -> ${built.length} chars`);
    }
    t.diagnostic(`link sizes on ${PAGE}:\n  ${sizes.join("\n  ")}`);
  });

  test("generated text round-trips byte for byte", () => {
    const r = rng(20261106);
    for (let i = 0; i < 400; i++) {
      const yaml = randomText(r, i < 350 ? 200 : 4000);
      const view = {};
      if (r() < 0.5) view.pod = "p" + randomText(r, 30);
      if (r() < 0.5) view.t = Math.round(r() * 1e6) / 1000;
      if (r() < 0.5) view.speed = [0.25, 0.5, 2, 4, 16][Math.floor(r() * 5)];
      if (r() < 0.5) view.event = Math.floor(r() * 5000) - 1;
      if (r() < 0.3) view.playing = true;
      const link = { yaml, seed: Math.floor(r() * 2 ** 31) * (r() < 0.5 ? -1 : 1), engine: "v1.36", view };
      const got = P.decode(P.encode(link));
      assert.ok(got.ok, `case ${i}: ${got.error}`);
      assert.deepEqual(got.link, link, `case ${i}`);
      assert.deepEqual(Buffer.from(got.link.yaml, "utf8"), Buffer.from(yaml, "utf8"), `case ${i} bytes`);
    }
  });

  test("the empty scenario and a leading byte-order mark survive", () => {
    for (const yaml of ["", "\uFEFF", "\uFEFFkind: Node\r\n", "\n\n"]) {
      const got = P.decode("#" + P.encode({ yaml, seed: 7, engine: "v1.36", view: {} }));
      assert.ok(got.ok);
      assert.equal(got.link.yaml, yaml);
      assert.equal(got.link.seed, 7);
    }
  });

  test("a link cut anywhere is an error that keeps a prefix of the text", () => {
    const yaml = readFileSync(join(examplesDir, "preemption-basic.yaml"), "utf8");
    const frag = P.encode({ yaml, seed: 0, engine: "v1.36", view: {} });
    let recoveredSome = 0;
    for (let cut = P.PREFIX.length; cut < frag.length; cut++) {
      const got = P.decode(frag.slice(0, cut));
      // The last characters may hold only DEFLATE's end marker: losing them
      // loses no text, and then the link may open whole, but never altered.
      if (got.ok) {
        assert.ok(cut >= frag.length - 4, `cut at ${cut} of ${frag.length} decoded as whole`);
        assert.equal(got.link.yaml, yaml);
        continue;
      }
      assert.match(got.error, /damaged/);
      assert.ok(yaml.startsWith(got.recovered), `cut at ${cut}: the recovered text is not a prefix of the scenario`);
      if (got.recovered.length > 0) recoveredSome++;
    }
    // Most cuts keep some text; the last ones keep nearly all of it.
    assert.ok(recoveredSome > (frag.length * 3) / 4, `only ${recoveredSome} cuts recovered text`);
    const late = P.decode(frag.slice(0, frag.length - 6));
    assert.ok(late.recovered.length > yaml.length - 200, `${late.recovered.length} of ${yaml.length} recovered`);
    assert.match(late.error, /\d+% of the scenario text could be read/);
    assert.deepEqual(late.partial, { seed: 0, engine: "v1.36", view: {} });
  });

  test("a changed character never decodes to a different scenario", () => {
    const yaml = readFileSync(join(examplesDir, "preemption-pdb-reprieve.yaml"), "utf8");
    const frag = P.encode({ yaml, seed: 3, engine: "v1.36", view: {} });
    const r = rng(42);
    for (let i = 0; i < 300; i++) {
      const at = P.PREFIX.length + Math.floor(r() * (frag.length - P.PREFIX.length));
      const c = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[Math.floor(r() * 64)];
      const bad = frag.slice(0, at) + c + frag.slice(at + 1);
      const got = P.decode(bad);
      if (got.ok) assert.equal(got.link.yaml, yaml, `change at ${at} to ${c}`);
    }
  });

  test("malformed fragments give clear errors", () => {
    const cases = [
      { name: "not a link", frag: "#details", want: /not a schedplay link/ },
      { name: "newer format", frag: "#v2.AAAA", want: /newer schedplay \(link format v2\)/ },
      { name: "empty payload", frag: "#v1.", want: /Nothing of the scenario could be read/ },
      { name: "garbage", frag: "#v1.zzzzzzzzzzzz", want: /damaged/ },
      { name: "a space pasted in", frag: "#" + P.encode({ yaml: "kind: Node\n", seed: 0, engine: "v1.36", view: {} }).replace(/(.{12})/, "$1 "), want: /character no schedplay link has, at position 13/ },
    ];
    for (const c of cases) {
      const got = P.decode(c.frag);
      assert.equal(got.ok, false, c.name);
      assert.match(got.error, c.want, c.name);
    }
    assert.equal(P.isPermalink("#v1.abc"), true);
    assert.equal(P.isPermalink("#v12.abc"), true);
    assert.equal(P.isPermalink("#top"), false);
  });

  test("the v1 dictionary is frozen", async () => {
    // Changing it breaks every v1 link ever shared: add a v2 format instead.
    const { DICTIONARY_V1 } = await loadTS("permalink-dict.ts");
    assert.equal(P.crc32(new TextEncoder().encode(DICTIONARY_V1)), DICT_CRC);
  });

  test("a link made by the first v1 release still opens", () => {
    const got = P.decode("#v1.q1ZKVbJSKjPUMzZT0lEqVrIy1VHKU7ICJnUdpWSgTFqygZFJimkyULIAyEUve4HCJUpWxkDFFUpWJqiFGY6MAQssSMKhKLUDAA");
    assert.ok(got.ok, got.error);
    assert.deepEqual(got.link, {
      yaml: 'apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nstatus:\n  allocatable: {cpu: "4", memory: 8Gi, pods: "10"}\n',
      seed: 5,
      engine: "v1.36",
      view: { pod: "default/critical", t: 30, speed: 4 },
    });
  });

  test("a link keeps the event it was copied at and whether it was playing", () => {
    const yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n";
    const paused = P.decode(P.encode({ yaml, seed: 0, engine: "v1.36", view: { event: 2, t: 0 } }));
    assert.ok(paused.ok, paused.error);
    assert.deepEqual(paused.link.view, { event: 2 });
    // Copied at t=0 on event 3 of 7: opens on that event, paused.
    assert.deepEqual(P.startOf(paused.link.view), { event: 2, t: 0, playing: false });
    const playing = P.decode(P.encode({ yaml, seed: 0, engine: "v1.36", view: { event: -1, playing: true, t: 0 } }));
    assert.deepEqual(playing.link.view, { event: -1, playing: true });
    assert.deepEqual(P.startOf(playing.link.view), { event: -1, t: 0, playing: true });
    // Between two events: the event and the time after it both come back.
    const between = P.decode(P.encode({ yaml, seed: 0, engine: "v1.36", view: { event: 4, t: 12.5 } }));
    assert.deepEqual(P.startOf(between.link.view), { event: 4, t: 12.5, playing: false });
    // A header whose event is not a seq is a damaged link, not a wrong moment.
    for (const q of [-2, 1.5, "3"]) {
      const body = new TextEncoder().encode(yaml);
      const head = JSON.stringify({ e: "v1.36", s: 0, n: body.length, c: P.crc32(body), q });
      const frag = "v1." + P.base64url(deflateSync(new TextEncoder().encode(head + "\n" + yaml), { dictionary: new TextEncoder().encode(DICT.DICTIONARY_V1) }));
      const bad = P.decode(frag);
      assert.equal(bad.ok, false, `q=${JSON.stringify(q)}`);
      assert.match(bad.error, /header could not be read/);
    }
  });

  test("v1 links made before links kept the event open as they did", () => {
    // Made by the encoder of the first v1 release: a time, no event.
    const timed = P.decode("#v1.q1ZKVbJSKjPUMzZT0lEqVrIy1VHKU7ICJnUdpWSgTFqygZFJimkyULIAyEUve4HCJUpWxkDFFUpWJqiFGY6MAQssSMKhKLUDAA");
    assert.ok(timed.ok, timed.error);
    assert.deepEqual(P.startOf(timed.link.view), { event: null, t: 30, playing: false });
    // Copied at t=0 by that release: no time, no event; it plays from the start.
    assert.deepEqual(P.startOf({ pod: "default/critical" }), { event: null, t: 0, playing: true });
    assert.deepEqual(P.startOf({}), { event: null, t: 0, playing: true });
  });

  test("base64url matches node's encoder", () => {
    const r = rng(9);
    for (let n = 0; n < 70; n++) {
      const b = Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
      const s = P.base64url(b);
      assert.equal(s, Buffer.from(b).toString("base64url"));
      assert.deepEqual(P.fromBase64url(s), { bytes: b, bad: -1 });
    }
  });

  test("linkFor drops the page's own fragment and reports the length", () => {
    const l = P.linkFor("http://127.0.0.1:8080/#v1.old", { yaml: "a", seed: 0, engine: "v1.36", view: {} });
    assert.ok(l.url.startsWith("http://127.0.0.1:8080/#v1."));
    assert.equal(l.url.indexOf("#"), l.url.lastIndexOf("#"));
    assert.equal(l.length, l.url.length);
    const big = P.linkFor(PAGE, { yaml: randomText(rng(1), 20000), seed: 0, engine: "v1.36", view: {} });
    assert.equal(big.fits, false);
  });
});
