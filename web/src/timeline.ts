// Playback of a simulation trace: a cursor (the last event applied, -1
// before the first) and the simulated time shown. Playing moves time at the
// chosen speed and applies each event when time reaches it, holding every
// event on screen for a moment so that events at the same instant are still
// seen one by one; long quiet gaps are crossed in a few seconds.
import type { TraceEvent } from "./bridge";

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
const HOLD_S = 0.7; // real seconds an event stays before the next, at 1x
const MAX_GAP_S = 3; // real seconds a long gap takes at most, at 1x

export class Timeline {
  events: TraceEvent[] = [];
  cursor = -1;
  now = 0;
  playing = false;
  speed = 1;
  done = false; // the trace is complete
  private hold = 0;

  reset(): void {
    this.events = [];
    this.cursor = -1;
    this.now = 0;
    this.hold = 0;
    this.done = false;
  }

  get end(): number {
    return this.events.length ? this.events[this.events.length - 1].t : 0;
  }

  // tick advances playback by dt real seconds; it reports whether the
  // cursor or the time changed.
  tick(dt: number): boolean {
    if (!this.playing) return false;
    const next = this.events[this.cursor + 1];
    if (!next) {
      if (this.done) this.playing = false;
      return false;
    }
    this.hold += dt * this.speed;
    const gap = next.t - this.now;
    const rate = Math.max(1, gap / MAX_GAP_S) * this.speed;
    const before = this.now;
    this.now = Math.min(next.t, this.now + dt * rate);
    if (this.now >= next.t && this.hold >= HOLD_S) {
      this.cursor++;
      this.hold = 0;
      return true;
    }
    return this.now !== before;
  }

  // seek shows event i (clamped; -1 is the start) at its time.
  seek(i: number): void {
    this.cursor = Math.max(-1, Math.min(i, this.events.length - 1));
    this.now = this.cursor >= 0 ? this.events[this.cursor].t : 0;
    this.hold = 0;
  }

  step(d: number): void {
    this.playing = false;
    this.seek(this.cursor + d);
  }

  // scrub shows simulated time t: the last event at or before it.
  scrub(t: number): void {
    let lo = 0, hi = this.events.length; // first event after t
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].t <= t) lo = mid + 1;
      else hi = mid;
    }
    this.cursor = lo - 1;
    this.now = Math.max(0, Math.min(t, this.end));
    this.hold = 0;
  }

  // nextPreemption moves to the next preemption decision or victim; false
  // when there is none after the cursor.
  nextPreemption(): boolean {
    for (let i = this.cursor + 1; i < this.events.length; i++) {
      const e = this.events[i];
      if ((e.kind === "Nominated" && (e.victims?.length ?? 0) > 0) || e.kind === "Preempted") {
        this.playing = false;
        this.seek(i);
        return true;
      }
    }
    return false;
  }

  faster(d: number): void {
    const i = SPEEDS.indexOf(this.speed);
    this.speed = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 2 : i) + d))];
  }
}

export function fmtTime(s: number): string {
  if (s < 60) return `${s < 10 && !Number.isInteger(s) ? s.toFixed(1) : Math.floor(s)}s`;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = Math.floor(s % 60);
  return `${h ? h + "h" : ""}${m ? m + "m" : ""}${r && !h ? r + "s" : ""}`;
}
