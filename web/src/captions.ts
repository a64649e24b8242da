// Lesson captions (docs/lessons.md) timed against a trace: a caption with
// "at" shows from that simulated time, one with "on" from the first trace
// event it matches. Nothing here touches the DOM.
import type { TraceEvent } from "./bridge";

export interface EventMatch { kind: string; pod?: string; node?: string; reason?: string }
export interface Caption { at?: number; on?: EventMatch; text: string }
export interface Question { id: string; ask: "node" | "victims" | "pod" | "time" | "feasible"; text: string; options?: number[] }
export interface Lesson { title: string; summary: string; topic?: string; captions: Caption[]; name?: string; questions?: Question[] }

export function matches(m: EventMatch, e: TraceEvent): boolean {
  return e.kind === m.kind && (!m.pod || e.pod === m.pod) && (!m.node || e.node === m.node) &&
    (!m.reason || e.reason.includes(m.reason));
}

interface Timed { i: number; t: number; seq: number } // seq -1: reached by time alone

// Captions resolves a lesson's captions as the trace grows and says which
// one belongs to a moment of playback.
export class Captions {
  private timed: (Timed | null)[];
  private scanned = 0;

  constructor(readonly lesson: Lesson) {
    this.timed = lesson.captions.map((c, i) => (c.at !== undefined ? { i, t: c.at, seq: -1 } : null));
  }

  // add resolves "on" captions against fresh trace events (in order).
  add(events: TraceEvent[]): void {
    for (const e of events) {
      this.scanned++;
      this.lesson.captions.forEach((c, i) => {
        if (c.on && !this.timed[i] && matches(c.on, e)) this.timed[i] = { i, t: e.t, seq: e.seq };
      });
    }
  }

  // at returns the index of the caption shown with event cursor applied at
  // time now: the latest reached, ordered by time, then event, then the
  // lesson's order; -1 before the first.
  at(cursor: number, now: number): number {
    let best: Timed | null = null;
    for (const c of this.timed) {
      if (!c) continue;
      const reached = c.seq >= 0 ? c.seq <= cursor : c.t <= now;
      if (!reached) continue;
      if (!best || c.t > best.t || (c.t === best.t && (c.seq > best.seq || (c.seq === best.seq && c.i > best.i)))) best = c;
    }
    return best ? best.i : -1;
  }

  // order lists the captions in the order playback shows them (those whose
  // moment is known so far).
  order(): number[] {
    return this.timed.filter((c): c is Timed => c !== null)
      .sort((a, b) => a.t - b.t || a.seq - b.seq || a.i - b.i).map((c) => c.i);
  }
}
