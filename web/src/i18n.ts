// The page's languages: English, Simplified Chinese and Bahasa Indonesia.
// Messages live in plain JSON catalogs (web/locales), bundled; plurals go
// through Intl.PluralRules. The language and the small catalogs the embed
// shares with the playground are in messages.ts.
// Kubernetes field names, plugin names and upstream's messages are never
// translated: the catalogs leave them as upstream prints them.
import en from "../locales/en.json";
import zh from "../locales/zh-CN.json";
import id from "../locales/id.json";
import zhLessons from "../locales/lessons/zh-CN.json";
import idLessons from "../locales/lessons/id.json";
import enLessons from "../locales/lessons/en.json";
import { format, lang, LANG_KEY, lookup, t as small, translateWith, type Catalogs, type Lang } from "./messages";

export { detect, lang, match, type Lang } from "./messages";
export const LANGS: { tag: Lang; name: string }[] = [
  { tag: "en", name: "English" },
  { tag: "zh-CN", name: "简体中文" },
  { tag: "id", name: "Bahasa Indonesia" },
];

const catalogs: Catalogs = { en, "zh-CN": zh, id };
const lessonCatalogs: Record<Lang, Record<string, string>> = { en: {}, "zh-CN": zhLessons, id: idLessons };

// t returns the message key in the page's language, with {name}
// placeholders filled; n picks a plural form. Keys of the small catalogs
// (messages.ts) are found too.
export function t(key: string, vars: Record<string, string | number> = {}, n?: number): string {
  const m = lookup(catalogs, key);
  return m === undefined ? small(key, vars, n) : format(m, vars, n);
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
// data-i18n-label (aria-label) under root, and data-i18n-keys: text whose
// [Key] marks become <kbd> elements (the keyboard help).
export function translate(root: ParentNode = document): void {
  translateWith(t, root);
  root.querySelectorAll<HTMLElement>("[data-i18n-keys]").forEach((e) => {
    const parts = t(e.dataset.i18nKeys!).split(/\[([^\]]+)\]/);
    e.replaceChildren(...parts.map((p, i) => {
      if (i % 2 === 0) return document.createTextNode(p);
      const k = document.createElement("kbd");
      k.textContent = p;
      return k;
    }));
  });
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
