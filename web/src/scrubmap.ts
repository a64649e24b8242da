// The scrubber's scale: simulated time to a position along the track and
// back, piecewise linear between the trace's event times, with long idle
// stretches (a run that ends with the 5-minute flush of unschedulable
// pods) drawn short so that the action keeps the width. Only where to
// draw times: the times themselves are the trace's.
import { t } from "./i18n";

// A gap between events is idle when it is longer than MIN_IDLE seconds,
// than IDLE_SHARE_OF_RUN of the run and than IDLE_TIMES_MEDIAN times the
// median gap (evenly spaced events are not idle); each idle gap gets
// IDLE_SHARE of the track (together at most half of it).
const IDLE_SHARE_OF_RUN = 0.1;
const IDLE_TIMES_MEDIAN = 4;
const MIN_IDLE = 5;
const IDLE_SHARE = 0.06;

export class ScrubMap {
  // knots: times and positions (0 to 1), both increasing.
  private ts: number[] = [0];
  private ps: number[] = [0];
  readonly idle: [number, number][] = [];

  constructor(times: number[], end: number) {
    const ts = [...new Set([0, ...times, end])].filter((t) => t >= 0 && t <= end).sort((a, b) => a - b);
    if (ts.length < 2 || end <= 0) return;
    const gaps = ts.slice(1).map((t, i) => t - ts[i]);
    const sorted = gaps.filter((g) => g > 0).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const idle = gaps.map((g) => g > MIN_IDLE && g > IDLE_SHARE_OF_RUN * end && g > IDLE_TIMES_MEDIAN * median);
    const k = idle.filter(Boolean).length;
    const share = k === 0 ? 0 : Math.min(IDLE_SHARE, 0.5 / k);
    const busy = gaps.reduce((s, g, i) => (idle[i] ? s : s + g), 0);
    const rest = 1 - k * share;
    this.ts = [ts[0]];
    this.ps = [0];
    let p = 0;
    gaps.forEach((g, i) => {
      p += idle[i] ? share : busy > 0 ? (rest * g) / busy : 0;
      this.ts.push(ts[i + 1]);
      this.ps.push(Math.min(1, p));
      if (idle[i]) this.idle.push([ts[i], ts[i + 1]]);
    });
    this.ps[this.ps.length - 1] = 1;
  }

  // pos is where time t sits, 0 to 1.
  pos(t: number): number {
    return interpolate(this.ts, this.ps, t);
  }

  // time is the time at position p (0 to 1).
  time(p: number): number {
    return interpolate(this.ps, this.ts, p);
  }
}

function interpolate(xs: number[], ys: number[], x: number): number {
  if (xs.length < 2) return 0;
  if (x <= xs[0]) return ys[0];
  const last = xs.length - 1;
  if (x >= xs[last]) return ys[last];
  let lo = 0, hi = last;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid;
    else hi = mid;
  }
  const span = xs[hi] - xs[lo];
  return span === 0 ? ys[hi] : ys[lo] + ((ys[hi] - ys[lo]) * (x - xs[lo])) / span;
}

// STEPS is the scrubber's resolution (its max; positions are 0 to STEPS).
const STEPS = 1000;

// Scrubber drives the time slider through a ScrubMap: its value is a
// position, its aria-valuetext the time, and a datalist marks the events
// (Chromium draws its options as ticks).
// While a run grows, its scale and ticks are rebuilt at most this often
// (ms): every frame, rebuilding them laid out up to 1,000 ticks anew.
const GROWING_REBUILD_MS = 1000;

export class Scrubber {
  private map = new ScrubMap([], 0);
  private events = -1;
  private end = -1;
  private built = 0; // performance.now() of the last rebuild

  constructor(private readonly input: HTMLInputElement, private readonly ticks: HTMLDataListElement, private readonly label: (t: number) => string) {
    input.min = "0";
    input.max = String(STEPS);
    input.step = "any";
    input.setAttribute("list", ticks.id);
  }

  // render shows time now of a trace of these event times ending at end
  // (growing: more events are coming).
  render(times: () => number[], count: number, end: number, now: number, growing = false): void {
    const changed = count !== this.events || end !== this.end;
    if (changed && !(growing && this.events > 0 && count > this.events && performance.now() - this.built < GROWING_REBUILD_MS)) {
      this.built = performance.now();
      this.events = count;
      this.end = end;
      const ts = times();
      this.map = new ScrubMap(ts, end);
      const seen = new Set<number>();
      const options: HTMLOptionElement[] = [];
      for (const t of ts) {
        const p = Math.round(this.map.pos(t) * STEPS);
        if (seen.has(p)) continue;
        seen.add(p);
        const o = document.createElement("option");
        o.value = String(p);
        options.push(o);
      }
      this.ticks.replaceChildren(...options);
      const spans = this.map.idle.map(([a, b]) => t("scrub.span", { from: this.label(a), to: this.label(b) }));
      this.input.title = spans.length ? t("scrub.idle", { spans: spans.join(", ") }) : "";
    }
    this.input.value = String(this.map.pos(now) * STEPS);
    this.input.setAttribute("aria-valuetext", this.label(now));
  }

  // time is the time the slider is at.
  time(): number {
    return this.map.time(Number(this.input.value) / STEPS);
  }
}
