// The page's language and the small catalogs (web/locales/embed) of what
// the embed page shows: its controls, the player's stop sentence, permalink
// errors, the canvas frame's label. The embed bundles only these (a few KB
// for all three languages); the playground's own catalogs (i18n.ts) are ten
// times that and stay out of it. The playground reads these too: a key
// lives in exactly one of the two (go test ./internal/course).
// The language comes from ?lang=, else the one the learner picked (kept in
// the browser), else the browser's languages.
import en from "../locales/embed/en.json";
import zh from "../locales/embed/zh-CN.json";
import id from "../locales/embed/id.json";

export type Lang = "en" | "zh-CN" | "id";
export const LANG_KEY = "schedplay.lang";

// A message with plural forms maps Intl.PluralRules categories to text.
export type Message = string | Record<string, string>;
export type Catalogs = Record<Lang, Record<string, Message>>;
const catalogs: Catalogs = { en, "zh-CN": zh, id };

// match maps a BCP 47 tag to a page language (zh-Hans, zh-SG: Chinese;
// in, the old code: Indonesian).
export function match(tag: string | null | undefined): Lang | null {
  const t = (tag ?? "").toLowerCase();
  if (t === "en" || t.startsWith("en-")) return "en";
  if (t === "zh" || t.startsWith("zh-cn") || t.startsWith("zh-hans") || t.startsWith("zh-sg")) return "zh-CN";
  if (t === "id" || t.startsWith("id-") || t === "in") return "id";
  return null;
}

// The defaults read the page's globals; under Node (unit tests of modules
// that import this one) there is no location and English is chosen.
export function detect(
  search = typeof location === "undefined" ? "" : location.search,
  stored = safeGet(LANG_KEY),
  browser: readonly string[] = typeof navigator === "undefined" ? [] : navigator.languages ?? [navigator.language],
): Lang {
  const q = match(new URLSearchParams(search).get("lang"));
  if (q) return q;
  const s = match(stored);
  if (s) return s;
  for (const b of browser) {
    const m = match(b);
    if (m) return m;
  }
  return "en";
}

function safeGet(k: string): string | null {
  try {
    return localStorage.getItem(k);
  } catch {
    return null;
  }
}

export const lang: Lang = detect();

// lookup finds key in the page's language, else in English.
export function lookup(cats: Catalogs, key: string, l: Lang = lang): Message | undefined {
  return cats[l][key] ?? cats.en[key];
}

// gapAfter is what follows a sentence before the next one: nothing after a
// full-width mark (Chinese "。", "？"), else a space.
export function gapAfter(sentence: string): string {
  return /[。？！：；）」』]$/.test(sentence) ? "" : " ";
}

// sentences joins the non-empty sentences of a message, each gap as
// gapAfter says.
export function sentences(...parts: string[]): string {
  return parts.filter((p) => p !== "").reduce((all, p) => (all === "" ? p : all + gapAfter(all) + p), "");
}

// format fills a message's {name} placeholders; n picks a plural form.
export function format(m: Message, vars: Record<string, string | number> = {}, n?: number, l: Lang = lang): string {
  if (typeof m !== "string") {
    const cat = new Intl.PluralRules(l).select(n ?? Number(vars.n ?? 0));
    m = m[cat] ?? m.other;
  }
  return m.replace(/\{(\w+)\}/g, (all, k: string) => (k in vars ? String(vars[k]) : all));
}

// t returns the message key of the small catalogs in the page's language
// (l, for a frame that takes its parent's), with {name} placeholders filled.
export function t(key: string, vars: Record<string, string | number> = {}, n?: number, l: Lang = lang): string {
  const m = lookup(catalogs, key, l);
  return m === undefined ? key : format(m, vars, n, l);
}

// canvasWords are the words the Go canvas draws (ui.Words), in language l:
// the canvas.* messages, as JSON for the bridge's setWords.
export function canvasWords(l: Lang = lang): string {
  const words: Record<string, string> = {};
  for (const key of Object.keys(catalogs.en)) {
    if (key.startsWith("canvas.")) words[key.slice("canvas.".length)] = t(key, {}, undefined, l);
  }
  return JSON.stringify(words);
}

// translateWith fills elements marked data-i18n (text), data-i18n-title and
// data-i18n-label (aria-label) under root with tr's messages.
export function translateWith(tr: (key: string) => string, root: ParentNode = document): void {
  document.documentElement.lang = lang;
  root.querySelectorAll<HTMLElement>("[data-i18n]").forEach((e) => { e.textContent = tr(e.dataset.i18n!); });
  root.querySelectorAll<HTMLElement>("[data-i18n-title]").forEach((e) => { e.title = tr(e.dataset.i18nTitle!); });
  root.querySelectorAll<HTMLElement>("[data-i18n-label]").forEach((e) => { e.setAttribute("aria-label", tr(e.dataset.i18nLabel!)); });
}
