// The editor pane's footer: whether the draft is saved (drafts-idb.ts
// reports each save), and a message that says what to do when the browser
// refuses to store it. It lives in its own element under the editor, so
// the text it reports on stays in view.
import type { SaveState } from "./drafts-idb";
import { lang, t } from "./i18n";
import { downloadYAML, notify } from "./share";

let stateEl: HTMLElement | null = null;
let failedShown = false;

// footer returns the editor pane's footer, made on first use; other parts
// (the problems list) put their own elements in it.
export function footer(): HTMLElement {
  let f = document.getElementById("editor-foot");
  if (!f) {
    f = document.createElement("div");
    f.id = "editor-foot";
    f.className = "editor-foot";
    document.getElementById("editor-pane")?.append(f);
  }
  return f;
}

function stateElement(): HTMLElement {
  if (!stateEl) {
    stateEl = document.createElement("span");
    stateEl.id = "draft-state";
    stateEl.className = "draft-state";
    stateEl.setAttribute("role", "status");
    footer().append(stateEl);
  }
  return stateEl;
}

const KB = 1024;
function size(chars: number): string {
  return chars >= KB * KB ? `${(chars / (KB * KB)).toFixed(1)} MB` : `${Math.max(1, Math.round(chars / KB))} KB`;
}

// showSaveState renders s; getText reads the editor for the download a
// failure offers.
export function showSaveState(s: SaveState, getText: () => string): void {
  const e = stateElement();
  e.dataset.state = s.state;
  switch (s.state) {
    case "saving":
      e.textContent = t("draft.saving");
      break;
    case "saved":
      e.textContent = t("draft.saved", { size: size(s.bytes) });
      e.title = t("draft.savedAt", { time: new Date(s.at).toLocaleTimeString(lang) });
      failedShown = false;
      break;
    case "failed":
    case "unavailable":
      e.textContent = t("draft.notSaved");
      e.title = s.error;
      if (!failedShown) {
        failedShown = true;
        notify("error", t("draft.saveFailed"), t("draft.saveFailedText", { error: s.error }),
          [{ label: t("share.download"), id: "draft-download", run: () => downloadYAML(getText()) }]);
      }
      break;
  }
}
