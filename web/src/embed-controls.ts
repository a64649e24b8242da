// The embed's playback controls (embed.html #controls): play/pause (replay
// at the end), step back/forward, a scrubber with ticks where pods are
// bound, preempted or deleted, and the speed. Every one works with the
// keyboard: Tab reaches them, and while the focus is in the embed Space or
// k plays and pauses, , and . (or the arrows on the scrubber) step, Home and
// End go to the start and the end, [ and ] change the speed. The ticks mark
// trace events by their kind; what an event means is the engine's.
import type { TraceEvent } from "./bridge";
import type { Player } from "./player";
import { fmtTime } from "./timeline";
import { t } from "./messages";

type TickKind = "bind" | "preempt" | "delete";

function tickKind(e: TraceEvent): TickKind | null {
  if (e.kind === "Scheduled") return "bind";
  if (e.kind === "Preempted" || (e.kind === "Nominated" && (e.victims?.length ?? 0) > 0)) return "preempt";
  if (e.kind === "Deleted" || e.kind === "Evicted") return "delete";
  return null;
}

// Ticks closer than this share of the scrubber are drawn once.
const TICK_BUCKETS = 200;

export class Controls {
  private back: HTMLButtonElement;
  private play: HTMLButtonElement;
  private fwd: HTMLButtonElement;
  private scrub: HTMLInputElement;
  private ticksEl: HTMLElement;
  private speed: HTMLSelectElement;
  private marks: { t: number; kind: TickKind }[] = [];
  private ticksFor = { end: -1, n: -1 };
  private playState = "";
  private dragging = false; // the pointer holds the scrubber's thumb

  constructor(private player: Player, private root: HTMLElement) {
    const el = <T extends HTMLElement>(id: string) => root.querySelector<T>(`#${id}`) as T;
    this.back = el("c-back");
    this.play = el("c-play");
    this.fwd = el("c-fwd");
    this.scrub = el("c-scrub");
    this.ticksEl = el("c-ticks");
    this.speed = el("c-speed");
    this.play.addEventListener("click", () => player.toggle());
    this.back.addEventListener("click", () => this.step(-1));
    this.fwd.addEventListener("click", () => this.step(1));
    this.scrub.addEventListener("input", () => player.act(() => player.tl.scrub(Number(this.scrub.value))));
    this.scrub.addEventListener("pointerdown", () => { this.dragging = true; });
    for (const ev of ["pointerup", "pointercancel"]) this.scrub.addEventListener(ev, () => { this.dragging = false; });
    this.speed.addEventListener("change", () => {
      player.tl.speed = Number(this.speed.value);
    });
  }

  show(): void {
    this.root.hidden = false;
  }

  reset(): void {
    this.marks = [];
    this.ticksFor = { end: -1, n: -1 };
    this.ticksEl.replaceChildren();
    this.player.tl.speed = Number(this.speed.value);
  }

  addEvents(events: TraceEvent[]): void {
    for (const e of events) {
      const kind = tickKind(e);
      if (kind) this.marks.push({ t: e.t, kind });
    }
  }

  private step(d: number): void {
    this.player.act(() => this.player.tl.step(d));
  }

  // render brings the controls up to the playhead.
  render(): void {
    const tl = this.player.tl;
    const atEnd = tl.done && tl.cursor >= tl.events.length - 1 && tl.events.length > 0;
    const st = tl.playing ? "pause" : atEnd ? "replay" : "play";
    if (st !== this.playState) {
      this.playState = st;
      this.play.textContent = st === "pause" ? "❚❚" : st === "replay" ? "↻" : "▶";
      this.play.setAttribute("aria-label", t(st === "pause" ? "tl.pause" : st === "replay" ? "embed.replay" : "tl.play"));
    }
    this.back.disabled = tl.cursor < 0;
    this.fwd.disabled = tl.cursor >= tl.events.length - 1;
    const end = tl.end;
    if (this.scrub.max !== String(end)) this.scrub.max = String(end);
    if (!this.dragging) this.scrub.value = String(tl.now);
    this.scrub.setAttribute("aria-valuetext", t("embed.position", { t: fmtTime(tl.now), i: tl.cursor + 1, n: tl.events.length }));
    if (end !== this.ticksFor.end || this.marks.length !== this.ticksFor.n) this.drawTicks(end);
  }

  private drawTicks(end: number): void {
    this.ticksFor = { end, n: this.marks.length };
    const seen = new Set<string>();
    const ticks: HTMLElement[] = [];
    for (const m of this.marks) {
      const at = end > 0 ? m.t / end : 0;
      const key = `${m.kind}:${Math.round(at * TICK_BUCKETS)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const i = document.createElement("i");
      i.className = m.kind;
      i.style.left = `${(at * 100).toFixed(2)}%`;
      ticks.push(i);
    }
    this.ticksEl.replaceChildren(...ticks);
    this.ticksEl.dataset.count = String(ticks.length);
  }

  // key handles the shortcuts; it leaves keys to the editor, the speed menu
  // and buttons (Space and Enter press them).
  key(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (e.ctrlKey || e.metaKey || e.altKey || t?.closest("textarea, select, summary")) return;
    if (this.root.hidden) return;
    const onButton = t instanceof HTMLButtonElement || t instanceof HTMLAnchorElement;
    const onScrub = t === this.scrub;
    const tl = this.player.tl;
    let done = true;
    switch (e.key) {
      case " ":
      case "k":
        if (onButton && e.key === " ") return;
        this.player.toggle();
        break;
      case ",":
        this.step(-1);
        break;
      case ".":
        this.step(1);
        break;
      case "ArrowLeft":
      case "ArrowRight":
        if (!onScrub) return;
        this.step(e.key === "ArrowLeft" ? -1 : 1);
        break;
      case "Home":
        this.player.act(() => tl.seek(-1));
        break;
      case "End":
        this.player.act(() => tl.seek(tl.events.length - 1));
        break;
      case "[":
      case "]": {
        const i = this.speed.selectedIndex + (e.key === "]" ? 1 : -1);
        if (i < 0 || i >= this.speed.options.length) break;
        this.speed.selectedIndex = i;
        tl.speed = Number(this.speed.value);
        break;
      }
      default:
        done = false;
    }
    if (done) e.preventDefault();
  }
}
