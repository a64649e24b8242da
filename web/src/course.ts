// The course: the lessons in teaching order, in chapters
// (examples/course.json), the learner's progress (kept in the browser,
// no account), and the lesson bar of the playground (course, previous,
// next). A lesson opens as index.html?lesson=NAME (or example=NAME, as in
// the embed): the playground loads examples/NAME.yaml and leaves the
// learner's own draft alone, so no "shared scenario" banner is raised. A NAME the course does not have opens
// what the page opens without one, with a message (lessonMissing).
import course from "../../examples/course.json";
import { lang, lessonText, t, withLang } from "./i18n";
import { lessonMeta } from "./lesson-meta";
import { listParts, similarNames } from "./similar";

export interface Chapter { id: string; title: string; lessons: string[] }
export const chapters: Chapter[] = course.chapters;
export const order: string[] = chapters.flatMap((c) => c.lessons);

const PROGRESS_KEY = "schedplay.course.done";

export function done(): Set<string> {
  try {
    const v = JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? "[]") as unknown;
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  } catch {
    return new Set();
  }
}

export function markDone(name: string): void {
  const d = done();
  if (d.has(name)) return;
  d.add(name);
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify([...d]));
  } catch { /* storage full or off: progress is only for this visit */ }
}

export function chapterOf(name: string): Chapter | undefined {
  return chapters.find((c) => c.lessons.includes(name));
}

export function chapterTitle(c: Chapter): string {
  return t("chapter." + c.id);
}

export function lessonHref(name: string): string {
  return withLang(`index.html?lesson=${encodeURIComponent(name)}`);
}

// lessonAsked is the lesson name the address gives (?lesson=NAME),
// whether the course has it or not. ?example=NAME, the embed's word for
// the same file (every example is a lesson), names it too, and counts
// when both are there, as in the embed: an embed's query copied into the
// playground's address opens what the embed showed.
export function lessonAsked(search = location.search): string | null {
  const q = new URLSearchParams(search);
  return q.get("example") || q.get("lesson") || null;
}

// lessonFromURL is the lesson the address asks for, if it is in the course.
export function lessonFromURL(search = location.search): string | null {
  const name = lessonAsked(search);
  return name !== null && order.includes(name) ? name : null;
}

// withoutLesson is the address (path, query, fragment) without its lesson,
// for a page that does not show that lesson: the address must not claim
// it, and a reload then shows what the page shows now.
export function withoutLesson(href: string): string {
  const u = new URL(href);
  u.searchParams.delete("lesson");
  u.searchParams.delete("example");
  return u.pathname + u.search + u.hash;
}

const NAME_SHOWN = 100; // characters of a lesson name a message shows

// What the editor shows instead of a lesson that did not open (share.ts's
// shareProbe.opened).
export type Instead = "draft" | "default" | "link" | "damaged-link" | "";

// lessonMissing is the message for a lesson the address names that did not
// open: the name, what the editor shows instead, lessons with a similar
// name (links) and where the course lists them all. why is "" for a name
// the course does not have, else why its file could not be loaded.
export function lessonMissing(name: string, why: string, instead: Instead): { title: string; text: string; extra: HTMLElement } {
  // The name is the link's, of any length: a screenful of it says no more.
  const shown = name.length > NAME_SHOWN ? name.slice(0, NAME_SHOWN) + "…" : name;
  const title = why === "" ? t("course.noLesson", { name: shown }) : t("course.lessonFailed", { name: shown, why });
  // A damaged link's own message says what the editor shows.
  const shows = instead === "draft" ? t("course.showsDraft")
    : instead === "default" ? t("course.showsDefault")
    : instead === "link" ? t("course.showsLink") : "";
  const extra = el("div", "lesson-missing");
  const like = why === "" ? similarNames(name, order) : [];
  if (like.length > 0) {
    const p = el("p", "lesson-similar", t("course.similar") + " ");
    // The separators are the language's ("a、b、c" in Chinese).
    for (const part of listParts(like, lang, "plain")) {
      if (!part.name) {
        p.append(part.text);
        continue;
      }
      const a = el("a", undefined, part.text);
      a.href = lessonHref(part.text);
      p.append(a);
    }
    extra.append(p);
  }
  extra.append(el("p", undefined, t("course.findAll", { lessons: t("ui.lessons") })));
  return { title, text: shows, extra };
}

// lessonChanged is the message for a link copied in a lesson whose text is
// not the lesson's any more (the lesson was edited since the link was
// made): the page shows the link's text, as the sender saw it, and this
// says so, with a link to the lesson as it is now. file is the lesson's
// text now, which gives its title.
export function lessonChanged(name: string, file: string): { title: string; text: string; extra: HTMLElement } {
  const title = lessonText(`${name}.title`, lessonMeta(file, name + ".yaml").title);
  const p = el("p", "lesson-changed");
  const a = el("a", undefined, t("course.openCurrent"));
  a.href = lessonHref(name);
  p.append(a);
  return { title: t("course.oldLink", { title }), text: t("course.changedSince"), extra: p };
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// lessonBar is the course navigation above a lesson: the course index,
// where the lesson is, and its previous and next lessons.
export function lessonBar(name: string): HTMLElement {
  const nav = el("nav", "course-bar");
  nav.setAttribute("aria-label", t("course.nav"));
  const i = order.indexOf(name);
  const ch = chapterOf(name);
  const index = el("a", "course-index", t("course.index"));
  index.href = withLang("gallery.html");
  const where = el("span", "course-where", t("course.where", { n: i + 1, total: order.length, chapter: ch ? chapterTitle(ch) : "" }));
  const progress = el("span", "course-progress", t("course.progress", { n: done().size }, done().size));
  progress.id = "course-progress";
  nav.append(index, where, progress);
  const link = (target: string | undefined, cls: string, label: string) => {
    if (!target) return;
    const a = el("a", cls, label);
    a.href = lessonHref(target);
    a.rel = cls === "course-prev" ? "prev" : "next";
    a.title = lessonTitle(target);
    nav.append(a);
  };
  link(order[i - 1], "course-prev", t("course.prev"));
  link(order[i + 1], "course-next", t("course.next"));
  return nav;
}

// titles are the lessons' English titles, filled by the index page (the
// playground knows the open lesson's own).
const titles = new Map<string, string>();
export function setTitle(name: string, english: string): void { titles.set(name, english); }
export function lessonTitle(name: string): string {
  return lessonText(name + ".title", titles.get(name) ?? name);
}

export function refreshProgress(): void {
  const p = document.getElementById("course-progress");
  if (p) p.textContent = t("course.progress", { n: done().size }, done().size);
}
