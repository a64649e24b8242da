// The page's languages: English, Simplified Chinese and Bahasa Indonesia.
// Messages live in plain JSON catalogs (web/locales), bundled; plurals go
// through Intl.PluralRules. The language comes from ?lang=, else the one
// the learner picked (kept in the browser), else the browser's languages.
// Kubernetes field names, plugin names and upstream's messages are never
// translated: the catalogs leave them as upstream prints them.
import en from "../locales/en.json";
import zh from "../locales/zh-CN.json";
import id from "../locales/id.json";
import zhLessons from "../locales/lessons/zh-CN.json";
import idLessons from "../locales/lessons/id.json";
import enLessons from "../locales/lessons/en.json";

export type Lang = "en" | "zh-CN" | "id";
export const LANGS: { tag: Lang; name: string }[] = [
  { tag: "en", name: "English" },
  { tag: "zh-CN", name: "简体中文" },
  { tag: "id", name: "Bahasa Indonesia" },
];
const LANG_KEY = "schedplay.lang";

type Message = string | Record<string, string>;
const catalogs: Record<Lang, Record<string, Message>> = { en, "zh-CN": zh, id };
const lessonCatalogs: Record<Lang, Record<string, string>> = { en: {}, "zh-CN": zhLessons, id: idLessons };

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

export let lang: Lang = detect();

// t returns the message key in the page's language, with {name}
// placeholders filled; n picks a plural form.
export function t(key: string, vars: Record<string, string | number> = {}, n?: number): string {
  let m: Message | undefined = catalogs[lang][key] ?? catalogs.en[key];
  if (m === undefined) return key;
  if (typeof m !== "string") {
    const cat = new Intl.PluralRules(lang).select(n ?? Number(vars.n ?? 0));
    m = m[cat] ?? m.other;
  }
  return m.replace(/\{(\w+)\}/g, (all, k: string) => (k in vars ? String(vars[k]) : all));
}

// lessonText is a lesson's text in the page's language: the translation
// of key ("<lesson>.caption.2") or the lesson's own English. A translation
// is of the English in lessons/en.json: text that differs (an edited
// lesson) shows as written.
export function lessonText(key: string, english: string): string {
  const source: Record<string, string> = enLessons;
  if (source[key] !== english) return english;
  return lessonCatalogs[lang][key] || english;
}

// translate fills elements marked data-i18n (text), data-i18n-title and
// data-i18n-label (aria-label) under root.
export function translate(root: ParentNode = document): void {
  document.documentElement.lang = lang;
  root.querySelectorAll<HTMLElement>("[data-i18n]").forEach((e) => { e.textContent = t(e.dataset.i18n!); });
  root.querySelectorAll<HTMLElement>("[data-i18n-title]").forEach((e) => { e.title = t(e.dataset.i18nTitle!); });
  root.querySelectorAll<HTMLElement>("[data-i18n-label]").forEach((e) => { e.setAttribute("aria-label", t(e.dataset.i18nLabel!)); });
}

// withLang adds the page's language to a link (not for English, the default).
export function withLang(href: string): string {
  if (lang === "en") return href;
  const u = new URL(href, location.href);
  u.searchParams.set("lang", lang);
  return u.pathname.split("/").pop() + u.search + u.hash;
}

// switcher is a labelled select that changes the language and reloads the
// page with lang= in its address.
export function switcher(): HTMLElement {
  const label = document.createElement("label");
  label.className = "lang-switch";
  const sel = document.createElement("select");
  sel.id = "lang";
  sel.setAttribute("aria-label", t("ui.language"));
  for (const l of LANGS) {
    const o = document.createElement("option");
    o.value = l.tag;
    o.textContent = l.name;
    o.lang = l.tag;
    o.selected = l.tag === lang;
    sel.append(o);
  }
  sel.addEventListener("change", () => {
    try {
      localStorage.setItem(LANG_KEY, sel.value);
    } catch { /* private mode: the address carries it */ }
    const u = new URL(location.href);
    u.searchParams.set("lang", sel.value);
    location.replace(u.toString());
  });
  label.append(sel);
  return label;
}
