// The problems list under the editor: every error and warning of the last
// load, in order, each a button that puts the cursor on it. A count heads
// it; the list opens on demand (it would crowd a small editor), and opens
// by itself when a load fails.
import type { Diagnostic } from "./bridge";
import { diagnosticMessage } from "./editor-api";
import { footer } from "./draft-status";
import { t } from "./i18n";

let box: HTMLDetailsElement | null = null;
let summary: HTMLElement | null = null;
let list: HTMLOListElement | null = null;

function ensure(): void {
  if (box) return;
  box = document.createElement("details");
  box.id = "problems";
  box.className = "problems";
  summary = document.createElement("summary");
  list = document.createElement("ol");
  list.setAttribute("aria-label", t("problems.label"));
  box.append(summary, list);
  footer().prepend(box);
}

const count = (key: string, n: number) => t(key, { n }, n);

// showProblems lists diagnostics (error: a failed load's message when it
// has none); jump moves the editor's cursor to a line and column.
export function showProblems(diagnostics: Diagnostic[], error: string | undefined, jump: (line: number, col: number) => void): void {
  ensure();
  const items = diagnostics.length === 0 && error !== undefined
    ? [{ line: 0, col: 0, severity: "error", msg: error } as Diagnostic]
    : diagnostics;
  const errors = items.filter((d) => d.severity !== "warning").length;
  const warnings = items.length - errors;
  box!.hidden = items.length === 0;
  box!.dataset.severity = errors ? "error" : "warning";
  summary!.textContent = items.length === 0 ? t("problems.none") : [errors && count("problems.errors", errors), warnings && count("status.warnings", warnings)].filter(Boolean).join(", ");
  const rows = items.map((d) => {
    const li = document.createElement("li");
    li.className = d.severity === "warning" ? "warning" : "error";
    const b = document.createElement("button");
    b.type = "button";
    const msg = diagnosticMessage(d);
    const where = d.line ? t("problems.at", { line: d.line, col: d.col, msg }) : t("problems.scenario", { msg });
    b.textContent = `${d.severity === "warning" ? "⚠" : "✖"} ${where}`;
    b.addEventListener("click", () => {
      if (d.line) jump(d.line, d.col);
    });
    li.append(b);
    return li;
  });
  list!.replaceChildren(...rows);
  if (errors && !box!.dataset.opened) {
    box!.open = true;
    box!.dataset.opened = "1"; // once: after that, the reader's choice stands
  }
}
