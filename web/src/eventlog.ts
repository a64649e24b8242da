// The event log: one row per engine event, its time and kind on a button
// that shows the event, beside it the event's words with their glossary
// terms as links. A busy run has thousands of rows, so the log is one Tab
// stop (a roving tabindex, WAI-ARIA APG "Developing a Keyboard Interface"):
// only one row's button is in the Tab order and the arrow keys move
// between rows; the links of a row are reached with → from its button.
// Playback marks the shown event's row (aria-current) and scrolls the log
// to it, never moving the keyboard focus.
import type { TraceEvent } from "./bridge";
import { el } from "./dom";
import { fill as fillTerms } from "./glossary";
import { t as tr } from "./i18n";
import { fmtTime } from "./timeline";

export const LOG_MAX = 3000; // rows the log renders; the scrubber reaches the rest
// LOG_SLICE_MS is how long one task builds rows: 3,000 at once took 90 ms,
// and a fixed 400 a task 40 to 76 ms where a collection fell in it.
const LOG_SLICE_MS = 12;

export interface LogHooks {
  jump(seq: number): void; // show the event
  cursor(): number; // the event shown
  afterFrame(fn: () => void): void; // run fn once the next frame is drawn
}

export class EventLog {
  private queue: TraceEvent[] = [];
  // The rows by event: playback marks one per event, and a selector over
  // 3,000 rows cost more than the frame had left.
  private rows: HTMLElement[] = [];
  private current: HTMLElement | null = null; // the shown event's row
  private stop: HTMLElement | null = null; // the row whose button is the Tab stop

  // section scrolls; list holds the rows; hint describes the keys.
  constructor(private section: HTMLElement, private list: HTMLElement, private hint: HTMLElement, private hooks: LogHooks) {
    list.addEventListener("keydown", (e) => this.onKey(e));
    list.addEventListener("focusin", (e) => {
      const t = e.target as HTMLElement, row = t.closest<HTMLElement>("li.row");
      if (row && !this.live(row)) {
        // A row of the last run (clear): the focus goes to the log itself.
        this.dropStale();
        this.section.focus({ preventScroll: true });
        return;
      }
      if (row) {
        this.setStop(row);
        // A press (mouse or touch) focuses the row before the button is
        // let go: scrolling then (the focused row grows to show all its
        // words) moved the row from under the pointer, and the click landed
        // on another row or none (at 390x844, where the log runs off the
        // window's bottom). A pressed row is revealed by its click.
        if (t.matches(":focus-visible")) this.reveal(row, t);
      }
      // The keys are told once, when the focus comes into the log.
      this.describe(false);
    });
    list.addEventListener("focusout", (e) => {
      if (!list.contains(e.relatedTarget as Node | null)) this.describe(true);
    });
    // A click on a row's words (not on a term) shows the event too.
    list.addEventListener("click", (e) => {
      const t = e.target as HTMLElement;
      if (t.closest("a")) return;
      const row = t.closest<HTMLElement>("li.row");
      if (!row || !this.live(row)) return;
      if (t.closest(".line") || t.closest(".jump")) hooks.jump(Number(row.dataset.seq));
      if (row.contains(document.activeElement)) this.reveal(row, document.activeElement as HTMLElement);
    });
  }

  // The rows are built after the frame: a run of hundreds of events must
  // not hold back the canvas showing its end.
  append(events: TraceEvent[]): void {
    if (events.length === 0) return;
    if (this.queue.length === 0) this.hooks.afterFrame(() => this.flush());
    this.queue.push(...events);
  }

  // clear empties the log. The last run's rows leave the document after the
  // next frame, before any new row comes (removing 3,000 rows took 7 to
  // 10 ms, which held back the first frame of an edited scenario); till
  // then they answer neither clicks nor keys.
  clear(): void {
    const focused = this.focused();
    this.queue = [];
    this.rows = [];
    this.current = null;
    this.stop = null;
    if (focused) {
      // The focus stays in the log, not on the page's body.
      this.list.replaceChildren();
      this.section.focus({ preventScroll: true });
      return;
    }
    if (!this.stale && this.list.firstChild) {
      this.stale = true;
      this.hooks.afterFrame(() => this.dropStale());
    }
  }

  private stale = false; // the list still holds the rows clear dropped

  // live reports whether row is this run's (not one clear dropped).
  private live(row: HTMLElement): boolean {
    return this.rows[Number(row.dataset.seq)] === row;
  }

  private dropStale(): void {
    if (!this.stale) return;
    this.stale = false;
    this.list.replaceChildren();
  }

  private flush(): void {
    this.dropStale();
    const began = performance.now();
    let built = 0, i = 0;
    for (; i < this.queue.length && (built % 16 !== 0 || performance.now() - began < LOG_SLICE_MS); i++) {
      const e = this.queue[i];
      if (e.seq >= LOG_MAX) {
        if (e.seq === LOG_MAX) this.list.append(el("li", "more", tr("log.more", { n: LOG_MAX })));
        continue;
      }
      this.list.append(this.row(e));
      built++;
    }
    this.queue = this.queue.slice(i);
    if (this.queue.length > 0) setTimeout(() => this.flush(), 0);
    if (built === 0) return;
    if (!this.stop) this.setStop(this.rows[0] ?? null);
    this.highlight();
  }

  // row is the button that shows its event and, beside it (not inside: a
  // link in a button is out of reach of the keyboard and of screen
  // readers), the event's words with their glossary terms as links. The
  // button's name is the whole line, from one aria-label: a screen reader
  // hears the event on the button, and naming it costs no walk of its
  // content.
  private row(e: TraceEvent): HTMLElement {
    const li = el("li", "row");
    li.dataset.seq = String(e.seq);
    const b = el("button", "jump");
    b.tabIndex = -1;
    const what = `${e.pod ?? ""}${e.node ? " → " + e.node : ""}`;
    const text = `${what}${what ? ": " : ""}${e.reason}`;
    const line = el("span", "line");
    fillTerms(line, text);
    for (const a of line.querySelectorAll("a")) a.tabIndex = -1;
    // The space keeps the visible words ("0s Queued") the start of the name.
    b.append(el("span", undefined, fmtTime(e.t)), " ", el("span", `kind-${e.kind}`, e.kind));
    b.setAttribute("aria-label", `${fmtTime(e.t)} ${e.kind} ${text}`);
    li.title = e.reason;
    li.append(b, line);
    this.rows[e.seq] = li;
    return li;
  }

  // highlight marks the shown event's row and scrolls the log to it. While
  // the keyboard focus is in the log the focused row stays where it is (the
  // log does not scroll under it) and the Tab stop stays with it; from
  // outside, Tab comes into the log at the shown event.
  highlight(): void {
    const li = this.rows[this.hooks.cursor()] ?? null;
    if (li === this.current) return;
    if (this.current) {
      this.current.classList.remove("current");
      this.current.firstElementChild?.removeAttribute("aria-current");
    }
    this.current = li;
    if (!li) return;
    li.classList.add("current");
    li.firstElementChild?.setAttribute("aria-current", "true");
    if (this.focused()) return;
    this.setStop(li);
    if (!this.section.hidden) this.scrollTo(li);
  }

  private focused(): boolean {
    return this.list.contains(document.activeElement);
  }

  private setStop(li: HTMLElement | null): void {
    if (li === this.stop) return;
    const had = this.stop?.querySelector<HTMLElement>(".jump");
    if (had) {
      had.tabIndex = -1;
      had.removeAttribute("aria-describedby");
    }
    this.stop = li;
    const b = li?.querySelector<HTMLElement>(".jump");
    if (!b) return;
    b.tabIndex = 0;
    if (!this.focused()) b.setAttribute("aria-describedby", this.hint.id);
  }

  private describe(on: boolean): void {
    const b = this.stop?.querySelector<HTMLElement>(".jump");
    if (on) b?.setAttribute("aria-describedby", this.hint.id);
    else b?.removeAttribute("aria-describedby");
  }

  // scrollTo scrolls the log (and nothing around it: the page stays where
  // the reader has it) so that the row is in view.
  private scrollTo(li: HTMLElement): void {
    const s = this.section, r = li.getBoundingClientRect(), box = s.getBoundingClientRect();
    const top = box.top + s.clientTop, bottom = top + s.clientHeight;
    if (r.top < top) s.scrollTop -= top - r.top;
    else if (r.bottom > bottom) s.scrollTop += Math.min(r.bottom - bottom, r.top - top);
  }

  // Keys in the log: ↑ ↓ Home End Page Up Page Down move between rows, → ←
  // between a row's button and its terms, Enter or Space on a button shows
  // its event. Keys it takes go no further: Home, End and Space are also
  // the page's shortcuts (main.ts), which listens on the document.
  private onKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
    const t = e.target as HTMLElement;
    const row = t.closest<HTMLElement>("li.row");
    if (!row || !this.live(row)) return;
    const seq = Number(row.dataset.seq);
    const parts = [row.querySelector<HTMLElement>(".jump")!, ...row.querySelectorAll<HTMLElement>(".line a")];
    const at = parts.indexOf(t);
    const last = this.rows.length - 1;
    // A page is the rows a log's height holds, less one (kept in view);
    // one line high each (a focused row shows all its words: it is taller).
    const page = Math.max(1, Math.floor(this.section.clientHeight / Math.max(1, parts[0].offsetHeight)) - 1);
    let to: number | undefined;
    switch (e.key) {
      case "ArrowDown": to = seq + 1; break;
      case "ArrowUp": to = seq - 1; break;
      case "PageDown": to = seq + page; break;
      case "PageUp": to = seq - page; break;
      case "Home": to = 0; break;
      case "End": to = last; break;
      case "ArrowRight":
      case "ArrowLeft": {
        const next = parts[at + (e.key === "ArrowRight" ? 1 : -1)];
        e.preventDefault();
        e.stopPropagation();
        if (next) this.focus(row, next);
        return;
      }
      case "Enter":
      case " ":
        if (at !== 0) return; // a term: Enter opens its entry
        e.preventDefault();
        e.stopPropagation();
        this.hooks.jump(seq);
        return;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
    const li = this.rows[Math.max(0, Math.min(last, to))];
    if (li) this.focus(li, li.querySelector<HTMLElement>(".jump")!);
  }

  // focus moves the keyboard focus to target in row li (focusin reveals it).
  private focus(li: HTMLElement, target: HTMLElement): void {
    this.setStop(li);
    target.focus({ preventScroll: true });
  }

  // reveal scrolls a focused row (all its words show while it has the
  // focus) into view as little as it takes, the page too if the log is
  // partly out of it; a row taller than the log shows from its top, and
  // the focused part in any case.
  private reveal(li: HTMLElement, target: HTMLElement): void {
    const tall = li.offsetHeight > this.section.clientHeight;
    li.scrollIntoView({ block: tall ? "start" : "nearest", inline: "nearest" });
    if (tall) target.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}
