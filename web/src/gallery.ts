// The lessons gallery: every example with its Lesson's title and summary,
// grouped by topic, each opening the playground through its permalink.
// Example text is untrusted in principle: it reaches the DOM as textContent.
import { encode, ENGINE_VERSION } from "./permalink";
import { lessonMeta, type LessonMeta } from "./lesson-meta";
import { registerWorker } from "./sw-register";

interface Entry extends LessonMeta {
  file: string;
  href: string;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function load(): Promise<Entry[]> {
  const names = (await (await fetch("examples/index.json")).json()) as string[];
  return Promise.all(
    names.map(async (file) => {
      const yaml = await (await fetch(`examples/${encodeURIComponent(file)}`)).text();
      const href = "index.html#" + encode({ yaml, seed: 0, engine: ENGINE_VERSION, view: {} });
      return { file, href, ...lessonMeta(yaml, file) };
    }),
  );
}

function card(e: Entry): HTMLElement {
  const a = el("a", "card");
  a.href = e.href;
  a.dataset.file = e.file;
  a.append(el("h3", undefined, e.title), el("p", undefined, e.summary), el("span", "file", e.file));
  return a;
}

async function main(): Promise<void> {
  const status = document.getElementById("gallery-status") as HTMLElement;
  const root = document.getElementById("gallery") as HTMLElement;
  let entries: Entry[];
  try {
    entries = await load();
  } catch (err) {
    status.textContent = `Could not load the examples: ${String(err)}`;
    status.className = "status bad";
    return;
  }
  const topics = new Map<string, Entry[]>();
  for (const e of entries) {
    const t = e.topic || "Other";
    topics.set(t, [...(topics.get(t) ?? []), e]);
  }
  for (const [topic, list] of topics) {
    const grid = el("div", "grid");
    grid.append(...list.map(card));
    const section = el("section");
    section.append(el("h2", undefined, topic), grid);
    root.append(section);
  }
  status.textContent = `${entries.length} lessons. Each opens in the playground; your own draft there is kept.`;
}

main();
registerWorker();
