// Reads what the gallery shows of an example: its Lesson's title, topic and
// summary (docs/lessons.md), or, for a file without a Lesson, its leading
// comment. A small line reader, not a YAML parser: it understands the
// plain, quoted and folded (>-, >, |) scalars lessons are written with.

export interface LessonMeta {
  title: string;
  topic: string;
  summary: string;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  if (t.length >= 2 && t.startsWith("'") && t.endsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
  return t;
}

// field reads key's value in lines, the document's lines from its
// "spec:" on; a block scalar's lines are those indented deeper than the key.
function field(lines: string[], key: string): string {
  const re = new RegExp(`^(\\s*)${key}:\\s*(.*)$`);
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    const rest = m[2].replace(/\s+#.*$/, "");
    if (!/^[>|][-+]?$/.test(rest)) return unquote(rest);
    const block: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j];
      if (l.trim() !== "" && l.length - l.trimStart().length <= indent) break;
      block.push(l.trim());
    }
    while (block.length && block[block.length - 1] === "") block.pop();
    // Folded scalars join lines with spaces; literal ones keep newlines.
    return rest.startsWith(">") ? block.join(" ").replace(/ {2,}/g, " ").trim() : block.join("\n");
  }
  return "";
}

// leadingComment is the file's first comment block, without the "#".
function leadingComment(text: string): string[] {
  const out: string[] = [];
  for (const l of text.split(/\r?\n/)) {
    if (!l.startsWith("#")) break;
    out.push(l.replace(/^#\s?/, ""));
  }
  return out;
}

export function lessonMeta(text: string, fileName: string): LessonMeta {
  const docs = text.split(/^---\s*$/m);
  const lesson = docs.find((d) => /^kind:\s*Lesson\s*$/m.test(d) && /^apiVersion:\s*schedplay\.dev\//m.test(d));
  const comment = leadingComment(text);
  const fallbackTitle = comment[0]?.replace(/\.$/, "") || fileName.replace(/\.ya?ml$/, "").replace(/-/g, " ");
  const fallbackSummary = comment.slice(1).join(" ").replace(/\s+/g, " ").trim();
  if (!lesson) return { title: fallbackTitle, topic: "", summary: fallbackSummary };
  const lines = lesson.split(/\r?\n/);
  const spec = lines.findIndex((l) => /^spec:\s*$/.test(l));
  const body = spec >= 0 ? lines.slice(spec + 1) : lines;
  return {
    title: field(body, "title") || fallbackTitle,
    topic: field(body, "topic"),
    summary: field(body, "summary") || fallbackSummary,
  };
}
