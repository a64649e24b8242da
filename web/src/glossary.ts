// The glossary: the words a learner meets in captions, the event log, the
// trace of a pod and the explain tables (queueing hint, flush, backoff,
// nominated node, ...), explained in the page's language. Entries live in
// web/locales/glossary (a file per language, checked complete by
// internal/course). Terms in a text become links that open their entry;
// English words are matched in every language, as the engine's and
// upstream's messages are English.
import en from "../locales/glossary/en.json";
import zh from "../locales/glossary/zh-CN.json";
import id from "../locales/glossary/id.json";
import { lang, t, type Lang } from "./i18n";

interface Entry { name: string; words: string[]; def: string }
type Glossary = Record<string, Entry>;
const all: Record<Lang, Glossary> = { en, "zh-CN": zh, id };
const entries: Glossary = all[lang];

// (?<![\w-]) and (?![\w-]) keep "victim" out of "victims-pdb" and
// "flush" out of "flushBackoffQ"; CJK words need no boundary.
const latin = /^[\x20-\x7e]+$/;
function pattern(word: string): string {
  const e = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return latin.test(word) ? `(?<![\\w-])${e}(?![\\w-])` : e;
}

// termOf maps a matched word (lower case) to its entry's id.
const termOf = new Map<string, string>();
const words: string[] = [];
for (const g of [all.en, entries]) {
  for (const [key, e] of Object.entries(g)) {
    for (const w of e.words) {
      if (termOf.has(w.toLowerCase())) continue;
      termOf.set(w.toLowerCase(), key);
      words.push(w);
    }
  }
}
// Longest first: "nominated node" wins over "nominated".
words.sort((a, b) => b.length - a.length);
const matcher = new RegExp(words.map(pattern).join("|"), "gi");

export interface Piece { text: string; term?: string }

// split cuts text into plain pieces and terms; a term is linked once per
// text (its first mention), so that a line does not turn into links.
export function split(text: string): Piece[] {
  const out: Piece[] = [];
  const seen = new Set<string>();
  let last = 0;
  for (const m of text.matchAll(matcher)) {
    const term = termOf.get(m[0].toLowerCase());
    if (!term || seen.has(term)) continue;
    seen.add(term);
    if (m.index! > last) out.push({ text: text.slice(last, m.index) });
    out.push({ text: m[0], term });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

// fill sets el's text with its terms as links to their entries. el must
// not be inside another interactive element (a button): a link there is
// reachable by neither Tab nor a screen reader.
export function fill(el: HTMLElement, text: string): void {
  el.replaceChildren();
  for (const p of split(text)) {
    if (!p.term) {
      el.append(p.text);
      continue;
    }
    const a = document.createElement("a");
    a.className = "term";
    a.textContent = p.text;
    a.dataset.term = p.term;
    a.href = `#term-${p.term}`;
    a.title = entries[p.term]?.name ?? p.term;
    el.append(a);
  }
}

// One listener for every term on the page (and in the event log).
document.addEventListener("click", (e) => {
  const a = (e.target as HTMLElement | null)?.closest?.<HTMLElement>(".term[data-term]");
  if (!a) return;
  e.preventDefault();
  e.stopPropagation();
  open(a.dataset.term);
}, true);

let dialog: HTMLDialogElement | null = null;

function build(): HTMLDialogElement {
  const d = document.createElement("dialog");
  d.id = "glossary";
  d.className = "glossary";
  d.setAttribute("aria-labelledby", "glossary-title");
  const head = document.createElement("div");
  head.className = "glossary-head";
  const h = document.createElement("h2");
  h.id = "glossary-title";
  h.textContent = t("glossary.title");
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = t("glossary.close");
  close.addEventListener("click", () => d.close());
  head.append(h, close);
  const dl = document.createElement("dl");
  const keys = Object.keys(entries).sort((a, b) => entries[a].name.localeCompare(entries[b].name, lang));
  for (const k of keys) {
    const dt = document.createElement("dt");
    dt.id = `term-${k}`;
    dt.tabIndex = -1;
    dt.textContent = entries[k].name;
    const dd = document.createElement("dd");
    dd.textContent = entries[k].def;
    dl.append(dt, dd);
  }
  d.append(head, dl);
  d.addEventListener("click", (e) => { if (e.target === d) d.close(); }); // the backdrop
  document.body.append(d);
  return d;
}

// open shows the glossary, at the entry term when given (focused, so a
// screen reader reads it and Esc or Close returns to the text).
export function open(term?: string): void {
  dialog ??= build();
  if (!dialog.open) dialog.showModal();
  dialog.querySelectorAll(".current").forEach((x) => x.classList.remove("current"));
  const dt = term ? dialog.querySelector<HTMLElement>(`#term-${CSS.escape(term)}`) : null;
  if (dt) {
    dt.classList.add("current");
    dt.scrollIntoView({ block: "center" });
    dt.focus();
  }
}

// button is the header's "Words" button that opens the whole glossary.
export function button(): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "glossary-open";
  b.textContent = t("glossary.open");
  b.title = t("glossary.title");
  b.addEventListener("click", () => open());
  return b;
}
