// Sharing on the playground page: opening a permalink (with the draft kept
// aside), the "Copy link", "Download YAML" and "Import" controls, and a
// notice banner for what they have to say. main.ts hands in an Editor and
// calls openInitial once at start.
import { decode, ENGINE_VERSION, isPermalink, linkFor, MAX_LINK_CHARS, type View } from "./permalink";
import { browserStore, DRAFT_KEY, Drafts, PendingDraft, PREVIOUS_KEY, worthKeeping } from "./drafts";
import { IdbStore, type SaveState } from "./drafts-idb";
import { t } from "./i18n";
import { gapAfter, sentences } from "./messages";

export interface Editor {
  getText(): string;
  textLength(): number; // getText().length, without reading the text
  setText(text: string): void;
  getView(): View;
  applyView(view: View): void;
}

export interface Opened {
  text: string;
  view?: View;
}

// State the end-to-end tests read.
export const shareProbe = { opened: "" as "" | "link" | "damaged-link" | "draft" | "default", lastLink: "", address: 0 };
(window as unknown as { __schedplayShare: typeof shareProbe }).__schedplayShare = shareProbe;

export const drafts = new Drafts(browserStore());
// A link's text becomes the draft once it has loaded (main.ts calls
// linkDraft.loaded with the first load's outcome).
export const linkDraft = new PendingDraft(drafts);

// openDrafts moves the drafts to IndexedDB (drafts-idb.ts) before the page
// reads the one to show; onState hears how each save went.
export async function openDrafts(onState: (s: SaveState) => void): Promise<void> {
  const { store, unavailable } = await IdbStore.open(browserStore() as Storage | null, [DRAFT_KEY, PREVIOUS_KEY]);
  store.onState = onState;
  drafts.use(store);
  // Registered after main.ts's own pagehide handler, which saves the text.
  addEventListener("pagehide", () => store.spill(browserStore() as Storage | null));
  if (unavailable) onState({ state: "unavailable", error: unavailable });
}

// ---- the banner ----

interface Action {
  label: string;
  id: string;
  run: () => void;
}

function el(tag: string, cls?: string, text?: string): HTMLElement {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// The banner is one live region, in the page from the start and empty
// (no box: share.css) while it has nothing to say. Screen readers announce
// words put into a region that is already there; a region inserted
// together with its words (a message at start-up) is often not read.
// It goes right under the header, in the page's flow: shown, it pushes the
// page down instead of lying over the header's buttons, the lesson or the
// canvas (share.css), and Tab reaches it after the header.
const banner = el("div", "share-banner");
banner.id = "share-banner";
banner.setAttribute("role", "status");
const header = document.querySelector("body > header");
if (header) header.after(banner);
else document.body.append(banner);

// Where the keyboard's focus was before it came into the banner: when its
// buttons go (dismissed, or a new message), the focus goes back there
// rather than to <body>, which would send the next Tab to the page's top.
let focusBefore: HTMLElement | null = null;
banner.addEventListener("focusin", (e) => {
  const from = e.relatedTarget;
  if (!(from instanceof Node && banner.contains(from))) focusBefore = from instanceof HTMLElement ? from : null;
});

const focusable = (e: Element | null): e is HTMLElement =>
  e instanceof HTMLElement && e.isConnected && e.closest("[hidden]") === null && e.getClientRects().length > 0;
const inView = (e: HTMLElement): boolean => {
  const r = e.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight;
};

// refocus puts the focus back where it was before the banner had it. With
// no such place (a click on ×, focus that came from the canvas's frame) it
// goes to the first of the lesson, the editor and the canvas that is in
// view, without scrolling: on a phone the lesson lies under the canvas,
// and a tap on × must not scroll the page away.
function refocus(): void {
  const before = focusBefore;
  focusBefore = null;
  if (focusable(before)) return before.focus();
  const near = [document.getElementById("lesson"), document.querySelector("#editor .cm-content"), document.getElementById("stage")].filter(focusable);
  (near.find(inView) ?? near[0])?.focus({ preventScroll: true });
}

function button(a: Action): HTMLButtonElement {
  const b = el("button", undefined, a.label) as HTMLButtonElement;
  b.type = "button";
  b.id = a.id;
  b.addEventListener("click", a.run);
  return b;
}

function message(title: string, text: string, extra?: HTMLElement): Node[] {
  return [el("strong", "share-title", title), document.createTextNode(gapAfter(title)), el("span", "share-text", text), ...(extra ? [extra] : [])];
}

// notify shows a message with buttons; kind "error" is announced assertively.
export function notify(kind: "info" | "error", title: string, text: string, actions: Action[] = [], extra?: HTMLElement): void {
  const focused = banner.contains(document.activeElement) ? document.activeElement!.id : null;
  banner.className = `share-banner ${kind}`;
  banner.setAttribute("role", kind === "error" ? "alert" : "status");
  const body = el("div", "share-body");
  body.append(...message(title, text, extra));
  const buttons = el("div", "share-actions");
  buttons.append(...actions.map(button));
  const close = el("button", "share-close", "×") as HTMLButtonElement;
  close.type = "button";
  close.id = "share-dismiss";
  close.title = t("share.dismiss");
  close.setAttribute("aria-label", t("share.dismiss"));
  close.addEventListener("click", dismiss);
  buttons.append(close);
  banner.replaceChildren(body, buttons);
  // A button of the banner had the focus (Restore, which says what it
  // did): it stays in the banner, on the same button if there is one.
  if (focused !== null) {
    const before = focusBefore;
    (buttons.querySelector<HTMLElement>(`[id="${focused}"]`) ?? close).focus();
    focusBefore = before;
  }
}

// notifyMore adds a message under the one the banner shows (a link's,
// raised as the page opened it), with its buttons beside that one's; with
// nothing shown it is an info message of its own.
export function notifyMore(title: string, text: string, actions: Action[] = [], extra?: HTMLElement): void {
  const body = banner.querySelector(".share-body");
  if (!body) return notify("info", title, text, actions, extra);
  const more = el("div", "share-more");
  more.append(...message(title, text, extra));
  body.append(more);
  banner.querySelector("#share-dismiss")?.before(...actions.map(button));
}

export function dismiss(): void {
  const focused = banner.contains(document.activeElement);
  banner.replaceChildren();
  if (focused) refocus();
}

// Esc with the keyboard's focus in the banner dismisses it, as its × does;
// Esc elsewhere is left alone. On the window in the capture phase, so it
// comes before presenter mode's Esc (presenter.ts, on the document, also
// capturing), which would leave presenter mode, and the page's (main.ts),
// which would close the help or the details panel as well: one key press
// does one thing.
window.addEventListener("keydown", (e) => {
  if (e.key !== "Escape" || e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!(e.target instanceof Node && banner.contains(e.target))) return;
  e.preventDefault();
  e.stopPropagation();
  dismiss();
}, true);

// ---- opening ----

let editorRef: Editor | null = null;

// replaceKeeping puts text in the editor and keeps what it replaces one
// click away (Reset, a gallery example).
export function replaceKeeping(ed: Editor, text: string, why: string, title: string): void {
  const cur = ed.getText();
  const kept = worthKeeping(cur, text, "") && drafts.keepAside(cur, why);
  ed.setText(text);
  notify("info", title, kept ? t("share.previousTextKept") : "", kept ? [restoreAction(ed)] : []);
}

function restoreAction(ed: Editor): Action {
  return {
    label: t("share.restore"),
    id: "share-restore",
    run: () => {
      const kept = drafts.previous();
      if (!kept) return;
      // Swap, so the text being replaced is itself kept.
      drafts.keepAside(ed.getText(), "your restore");
      ed.setText(kept.text);
      drafts.save(kept.text);
      notify("info", t("share.restored"), t("share.restoredText"), [restoreAction(ed)]);
    },
  };
}

// adoptEdit is called when the learner first edits text that was not their
// draft (a course lesson): the edit becomes the draft, and the draft it
// replaces is kept aside, with the banner to restore it.
export function adoptEdit(ed: Editor, text: string, why: string, defaultText: string): void {
  const draft = drafts.current();
  const kept = worthKeeping(draft, text, defaultText) && drafts.keepAside(draft, why);
  if (kept) notify("info", t("share.editIsDraft"), t("share.previousKept"), [restoreAction(ed)]);
}

// openFragment decides what the editor shows for a fragment, given the
// draft it would replace; it keeps that draft aside when it holds work.
export function openFragment(ed: Editor, fragment: string, draft: string | null, defaultText: string): Opened | null {
  if (!isPermalink(fragment)) return null;
  const d = decode(fragment);
  if (d.ok) {
    const kept = worthKeeping(draft, d.link.yaml, defaultText) && drafts.keepAside(draft, "a shared link");
    linkDraft.hold(d.link.yaml);
    shareProbe.opened = "link";
    if (kept) {
      notify("info", t("share.openedLink"), t("share.previousKept"), [restoreAction(ed)]);
    }
    return { text: d.link.yaml, view: d.link.view };
  }
  shareProbe.opened = "damaged-link";
  const text = d.recovered !== "" ? d.recovered : draft ?? defaultText;
  const kept = d.recovered !== "" && worthKeeping(draft, text, defaultText) && drafts.keepAside(draft, "a damaged link");
  const what = d.recovered !== ""
    ? t("share.recovered", { n: d.recovered.length }, d.recovered.length)
    : t("share.keepsDraft");
  notify("error", t("share.linkFailed"), sentences(d.error, what, kept ? t("share.previousKept") : ""),
    kept ? [restoreAction(ed)] : []);
  if (d.recovered !== "") linkDraft.hold(text);
  return { text, view: d.partial?.view };
}

// ---- the address bar ----

// Text longer than this never makes a link that fits (scenario YAML
// deflates about tenfold), so it is not compressed on every edit.
const ADDRESS_MAX_TEXT = 40000;
const ADDRESS_DEBOUNCE_MS = 600;
let addressTimer: number | undefined;

// trackAddress puts a link to the editor's text and view in the address bar
// (history.replaceState, debounced), so copying the address shares what is
// on screen; a text too large for a link leaves the address bare.
// edited: the text changed, so a link already in the address is stale and
// goes at once (a reload before the debounce must bring back the draft,
// not the older link).
export function trackAddress(ed: Editor, edited = false): void {
  clearTimeout(addressTimer);
  if (edited && location.hash !== "") history.replaceState(null, "", location.pathname + location.search);
  addressTimer = window.setTimeout(() => {
    const bare = location.pathname + location.search;
    // The length first: a large text is not read at all.
    const built = ed.textLength() <= ADDRESS_MAX_TEXT
      ? linkFor(location.href, { yaml: ed.getText(), seed: 0, engine: ENGINE_VERSION, view: ed.getView() })
      : null;
    const next = built?.fits ? built.url : bare;
    if (next !== location.href && !(next === bare && location.hash === "")) history.replaceState(null, "", next);
    shareProbe.address++;
  }, ADDRESS_DEBOUNCE_MS);
}

// openInitial returns what the editor shows at start: a link in the
// address, else the autosaved draft, else the default scenario.
export function openInitial(ed: Editor, defaultText: string): Opened {
  editorRef = ed;
  const draft = drafts.current();
  // The link stays in the address bar: it is what the page shows.
  const fromLink = openFragment(ed, location.hash, draft, defaultText);
  if (fromLink) return fromLink;
  shareProbe.opened = draft !== null ? "draft" : "default";
  return { text: draft ?? defaultText };
}

// A link pasted into the address bar of an open page. The link is the
// event's: a pending trackAddress could have replaced the address since
// (it is cancelled here: the pasted link is what the page shows now).
window.addEventListener("hashchange", (e) => {
  clearTimeout(addressTimer);
  const ed = editorRef, hash = new URL(e.newURL).hash;
  if (!ed || !isPermalink(hash)) return;
  const opened = openFragment(ed, hash, ed.getText(), "");
  if (opened) {
    ed.setText(opened.text);
    if (opened.view) ed.applyView(opened.view);
  }
});

// ---- controls ----

export function downloadYAML(text: string, name = "scenario.yaml"): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function copyLink(ed: Editor): Promise<void> {
  const built = linkFor(location.href, { yaml: ed.getText(), seed: 0, engine: ENGINE_VERSION, view: ed.getView() });
  if (!built.fits) {
    shareProbe.lastLink = "";
    notify("error", t("share.tooLarge"), t("share.tooLargeText", { n: built.length, max: MAX_LINK_CHARS }),
      [{ label: t("share.download"), id: "share-download", run: () => downloadYAML(ed.getText()) }]);
    return;
  }
  shareProbe.lastLink = built.url;
  const field = el("input", "share-link") as HTMLInputElement;
  field.readOnly = true;
  field.value = built.url;
  field.setAttribute("aria-label", t("share.linkField"));
  field.addEventListener("focus", () => field.select());
  let copied = false;
  try {
    await navigator.clipboard.writeText(built.url);
    copied = true;
  } catch {
    // No clipboard permission: the field below lets the user copy by hand.
  }
  notify("info", t(copied ? "share.copied" : "share.ready"), t("share.chars", { n: built.length }, built.length), [], field);
}

// importText puts a file's text (a scenario or a kubectl dump) in the
// editor, keeping the replaced draft aside.
export function importText(ed: Editor, text: string, name: string): void {
  const cur = ed.getText();
  const kept = worthKeeping(cur, text, "") && drafts.keepAside(cur, "an import");
  ed.setText(text);
  drafts.save(text);
  notify("info", t("share.imported", { name }), kept ? t("share.previousKept") : "", kept ? [restoreAction(ed)] : []);
}

function pickFile(ed: Editor): void {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = ".yaml,.yml,.json,application/yaml,application/json,text/plain";
  input.addEventListener("change", async () => {
    const f = input.files?.[0];
    if (f) importText(ed, await f.text(), f.name);
  });
  input.click();
}

// setupControls adds "Copy link", "Download YAML" and "Import" to bar, and
// accepts a file dropped anywhere on the page.
export function setupControls(ed: Editor, bar: HTMLElement): void {
  const add = (id: string, label: string, title: string, run: () => void) => {
    const b = el("button", undefined, label) as HTMLButtonElement;
    b.type = "button";
    b.id = id;
    b.title = title;
    b.addEventListener("click", run);
    bar.prepend(b);
  };
  add("import", t("share.import"), t("share.importTitle"), () => pickFile(ed));
  add("download", t("share.download"), t("share.downloadTitle"), () => downloadYAML(ed.getText()));
  add("copy-link", t("share.copyLink"), t("share.copyLinkTitle"), () => void copyLink(ed));
  document.addEventListener("dragover", (e) => {
    if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
  });
  // Capture: the editor would otherwise insert a dropped file at the cursor.
  document.addEventListener("drop", async (e) => {
    const f = e.dataTransfer?.files?.[0];
    if (!f) return;
    e.preventDefault();
    e.stopPropagation();
    importText(ed, await f.text(), f.name);
  }, { capture: true });
}
