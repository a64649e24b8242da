// The course index: the lessons in teaching order, a section per chapter
// (examples/course.json), each lesson with its title and summary in the
// page's language, whether it asks questions, and whether the learner has
// done it. Example text is untrusted in principle: it reaches the DOM as
// textContent.
import { lessonMeta, type LessonMeta } from "./lesson-meta";
import { registerWorker } from "./sw-register";
import { chapters, chapterTitle, done, lessonHref, setTitle } from "./course";
import { lessonText, t, translate, switcher } from "./i18n";

interface Entry extends LessonMeta {
  name: string;
  questions: boolean;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function load(names: string[]): Promise<Map<string, Entry>> {
  const entries = await Promise.all(
    names.map(async (name) => {
      const yaml = await (await fetch(`examples/${encodeURIComponent(name)}.yaml`)).text();
      return { name, questions: /^ {2}questions:\s*$/m.test(yaml), ...lessonMeta(yaml, name + ".yaml") };
    }),
  );
  return new Map(entries.map((e) => [e.name, e]));
}

function item(e: Entry, isDone: boolean): HTMLElement {
  const li = el("li", isDone ? "lesson-item done" : "lesson-item");
  const a = el("a", "card");
  a.href = lessonHref(e.name);
  a.dataset.file = e.name + ".yaml";
  const h = el("h3", undefined, lessonText(e.name + ".title", e.title));
  if (isDone) h.prepend(el("span", "tick", "✓ "));
  a.append(h, el("p", undefined, lessonText(e.name + ".summary", e.summary)));
  const tags = el("span", "file");
  tags.textContent = (e.questions ? t("course.asks") + " · " : "") + (isDone ? t("course.done") : e.name + ".yaml");
  a.append(tags);
  li.append(a);
  return li;
}

async function main(): Promise<void> {
  translate();
  document.querySelector("header.top")?.append(switcher());
  const status = document.getElementById("gallery-status") as HTMLElement;
  const root = document.getElementById("gallery") as HTMLElement;
  let entries: Map<string, Entry>;
  try {
    entries = await load(chapters.flatMap((c) => c.lessons));
  } catch (err) {
    status.textContent = t("course.loadFailed", { error: String(err) });
    status.className = "status bad";
    return;
  }
  const finished = done();
  const toc = el("ol", "toc");
  toc.setAttribute("aria-label", t("course.chapters"));
  chapters.forEach((c, i) => {
    const n = c.lessons.filter((l) => finished.has(l)).length;
    const line = el("li", "toc-line");
    // The list numbers the line (ol): the link holds the title alone.
    const a = el("a", undefined, chapterTitle(c));
    a.href = `#chapter-${c.id}`;
    line.append(a, el("span", "toc-count", t("course.chapterDone", { n, total: c.lessons.length })));
    toc.append(line);
    const list = el("ol", "grid");
    for (const name of c.lessons) {
      const e = entries.get(name);
      if (!e) continue;
      setTitle(name, e.title);
      list.append(item(e, finished.has(name)));
    }
    const section = el("section");
    section.id = `chapter-${c.id}`;
    section.append(el("h2", undefined, `${i + 1}. ${chapterTitle(c)}`), list);
    root.append(section);
  });
  root.prepend(toc);
  const total = chapters.reduce((s, c) => s + c.lessons.length, 0);
  const asks = [...entries.values()].filter((e) => e.questions).length;
  status.textContent = t("course.status", { n: total, done: finished.size, asks }, total);
}

main();
registerWorker();
