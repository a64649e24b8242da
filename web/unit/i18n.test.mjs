// Unit tests of the catalogs as the page reads them (web/src/i18n.ts and
// messages.ts): in each language every message the English catalogs have
// comes from that language's own catalog, never English or the key; and
// the embed's bundle carries the small catalogs only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { loadTS, web } from "./load.mjs";

const read = (f) => JSON.parse(readFileSync(join(web, "locales", f), "utf8"));

// withLang loads a module as a page whose address says ?lang=lang.
async function withLang(lang, name) {
  globalThis.location = { search: `?lang=${lang}` };
  try {
    return await loadTS(name);
  } finally {
    delete globalThis.location;
  }
}

// vars fills every placeholder of a message with its own name.
const vars = (m) => Object.fromEntries([...JSON.stringify(m).matchAll(/\{(\w+)\}/g)].map(([, k]) => [k, `<${k}>`]));
// filled is message m as the language shows it for n, so filled.
const filled = (m, n, lang) => {
  const text = typeof m === "string" ? m : m[new Intl.PluralRules(lang).select(n)] ?? m.other;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k === "n" ? String(n) : `<${k}>`));
};

for (const lang of ["zh-CN", "id"]) {
  test(`every message reads from the ${lang} catalogs`, async () => {
    const page = await withLang(lang, "i18n.ts");
    const small = await withLang(lang, "messages.ts");
    assert.equal(page.lang, lang);
    const [pageEn, smallEn] = [read("en.json"), read("embed/en.json")];
    const [pageCat, smallCat] = [read(`${lang}.json`), read(`embed/${lang}.json`)];
    const wrong = [];
    for (const [cats, en, t] of [[pageCat, pageEn, page.t], [smallCat, smallEn, page.t], [smallCat, smallEn, small.t]]) {
      for (const key of Object.keys(en)) {
        if (!(key in cats)) {
          wrong.push(`${key}: missing`);
          continue;
        }
        for (const n of [1, 2]) {
          const got = t(key, { ...vars(en[key]), n }, n);
          if (got !== filled(cats[key], n, lang)) wrong.push(`${key} (n=${n}): ${got}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
    // The language is in effect: a message reads differently from English.
    const key = "details.victims";
    assert.notEqual(page.t(key), pageEn[key]);
  });
}

// The words the Go canvas draws (ui.Words) go to the bridge as the
// canvas.* messages of the reader's language: every one of them, read from
// that language's catalog. Only Kubernetes' own terms may read as in
// English (the PriorityClass kind; Indonesian keeps "taint").
const keptEnglish = { "zh-CN": ["legend"], id: ["legend", "taint"] };
for (const lang of ["zh-CN", "id"]) {
  test(`the canvas's words in ${lang}`, async () => {
    const small = await withLang(lang, "messages.ts");
    const [en, cat] = [read("embed/en.json"), read(`embed/${lang}.json`)];
    const names = Object.keys(en).filter((k) => k.startsWith("canvas.")).map((k) => k.slice("canvas.".length));
    assert.ok(names.length >= 20, `canvas words: ${names}`);
    const words = JSON.parse(small.canvasWords());
    assert.deepEqual(Object.keys(words).sort(), [...names].sort());
    for (const name of names) {
      assert.equal(words[name], cat[`canvas.${name}`], name);
      if (!keptEnglish[lang].includes(name)) assert.notEqual(words[name], en[`canvas.${name}`], `canvas.${name} reads as in English`);
    }
    assert.deepEqual(JSON.parse(small.canvasWords("en")), Object.fromEntries(names.map((n) => [n, en[`canvas.${n}`]])));
  });
}

test("English under Node, and a missing key shows as itself", async () => {
  const M = await loadTS("i18n.ts");
  assert.equal(M.lang, "en");
  assert.equal(M.t("details.requestedOf", { used: "3", total: "4" }), "3 of 4 requested");
  assert.equal(M.t("progress.simStopped", { t: 2, n: 1 }, 1), "the simulation stopped at t=2s after 1 event; the events so far are shown");
  assert.equal(M.t("no.such.key"), "no.such.key");
});

test("the embed bundles the small catalogs, not the playground's", async () => {
  const r = await build({
    entryPoints: [join(web, "src", "embed.ts")], bundle: true, write: false, metafile: true,
    format: "iife", platform: "browser", define: { ASSETS: "{}" }, logLevel: "silent", absWorkingDir: web,
  });
  const inputs = Object.keys(r.metafile.outputs[Object.keys(r.metafile.outputs)[0]].inputs).filter((f) => f.startsWith("locales/"));
  for (const lang of ["en", "zh-CN", "id"]) {
    assert.ok(inputs.includes(`locales/embed/${lang}.json`), `embed/${lang}.json is in the embed: ${inputs}`);
    assert.ok(!inputs.includes(`locales/${lang}.json`), `${lang}.json, the playground's catalog, is in the embed`);
    assert.ok(!inputs.includes(`locales/lessons/${lang}.json`), `lessons/${lang}.json is in the embed: it fetches its reader's captions`);
  }
});

// The embed's captions (embed-captions.ts): only the reader's language is
// fetched; until it is in, a caption waits (null); a failed fetch, an
// answer that is not a table and an edited caption give the English.
test("the embed fetches the reader's captions only, English when that fails", async () => {
  const M = await loadTS("embed-captions.ts");
  const urls = { "zh-CN": "captions-zh-CN.1.json", id: "captions-id.2.json" };
  const asked = [];
  const server = (answers) => async (u) => {
    asked.push(u);
    const a = answers[u];
    if (a instanceof Error) throw a;
    return { ok: a !== undefined, json: async () => a };
  };
  const zh = { "l.caption.0": ["Hello", "你好"] };
  const get = server({ "captions-zh-CN.1.json": zh, "captions-id.2.json": [1, 2] });
  assert.deepEqual(await M.captionsFor("zh-CN", urls, get), zh);
  assert.deepEqual(await M.captionsFor("en", urls, get), {});
  assert.deepEqual(await M.captionsFor("id", urls, get), {}, "an array is no table");
  assert.deepEqual(asked, ["captions-zh-CN.1.json", "captions-id.2.json"], "English fetches nothing");
  assert.deepEqual(await M.captionsFor("zh-CN", urls, server({ "captions-zh-CN.1.json": new TypeError("offline") })), {});
  assert.deepEqual(await M.captionsFor("zh-CN", urls, server({})), {}, "a 404");

  let arrive;
  const c = new M.CaptionText(new Promise((r) => { arrive = r; }));
  assert.equal(c.text("l.caption.0", "Hello"), null, "nothing shows before the table is in");
  arrive(zh);
  await c.ready;
  assert.equal(c.text("l.caption.0", "Hello"), "你好");
  assert.equal(c.text("l.caption.0", "Hello, edited"), "Hello, edited", "an edited caption shows as written");
  assert.equal(c.text("l.caption.1", "Bye"), "Bye");
  const failed = new M.CaptionText(M.captionsFor("zh-CN", urls, server({})));
  await failed.ready;
  assert.equal(failed.text("l.caption.0", "Hello"), "Hello");
});

// A message of several sentences: a space after a Western full stop, none
// after a Chinese one (a space there reads as a gap), empty parts left out.
test("sentences are joined as their script writes them", async () => {
  const M = await withLang("en", "messages.ts");
  assert.equal(M.sentences("No such example.", "", "The gallery lists them all."), "No such example. The gallery lists them all.");
  assert.equal(M.sentences("没有名为“x”的示例。", "你要找的是不是 a？", "示例库列出了全部示例。"), "没有名为“x”的示例。你要找的是不是 a？示例库列出了全部示例。");
  assert.equal(M.sentences("Invalid link", "编辑器改为显示你的草稿。"), "Invalid link 编辑器改为显示你的草稿。", "after a sentence without a full-width mark, a space");
  assert.equal(M.gapAfter("没有名为“x”的课时。"), "");
  assert.equal(M.gapAfter("There is no lesson named “x”."), " ");
});
