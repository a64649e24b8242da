// Playback of a loaded scenario, shared by the playground page and the embed
// page: it grows the trace a few milliseconds per frame (so re-simulating
// never freezes the page), moves the Timeline, and tells the canvas which
// event and time to show. The pages draw their own controls from onRender.
import type { Bridge, SimulateReply, TraceEvent } from "./bridge";
import { Timeline } from "./timeline";
import { lang, t as tr } from "./messages";

export interface PlayerHooks {
  // Fresh trace events, in order, as the simulation produces them.
  onEvents?(events: TraceEvent[]): void;
  // After every change of what is shown; moved: the cursor changed.
  onRender?(moved: boolean, force: boolean): void;
  // The budget message changed ("" when none).
  onStopped?(stopped: string): void;
  // An open question holds the rest of the trace back: true if the page
  // closed questions (a link's moment lies past them), so that more comes.
  onHeld?(): boolean;
  // An edit waits to load: what is built ahead for the run on screen
  // would be thrown away.
  busy?(): boolean;
}

// Simulation time per frame: short while playing (animation stays smooth),
// longer while the reader waits for the end of an edited run.
const SLICE_MS = "8";
const FOLLOW_SLICE_MS = "30";
// While following a growing run, the end is shown this often (ms): every
// seek builds and lays out a new scene, and the frame that draws it redraws
// the whole canvas (at 5,000 pods 50 to 100 ms of SwiftShader work, which
// the frame's commit waits for).
const FOLLOW_SHOW_MS = 1000;
// A frame's share of building the followed end's scene ahead (ms), while
// the run grows and once it is done.
const FOLLOW_PREFETCH_MS = "10";
const FOLLOW_END_PREFETCH_MS = "30";
// A frame's share of building the next event's scene ahead (ms): what a
// frame has left at 500 nodes while chips glide and the canvas is read
// back (measured for docs/performance-web.md).
const PREFETCH_SLICE_MS = "2";

export class Player {
  readonly tl = new Timeline();
  simDone = true;
  // simHeld: nothing left to simulate for now, an open question holds the
  // rest of the trace back (no progress line for it).
  simHeld = false;
  stopped = "";
  cancelled = false; // the reader stopped the simulation (cancel)
  gen = 0; // the canvas generation of the last seek
  // followEnd keeps the end of a growing trace on screen (after an edit).
  followEnd = false;
  // hold defers simulating, so that the t=0 scene reaches the screen first
  // (the first simulation slice also compiles the engine's code).
  hold = false;
  // paused stops simulating while a load that replaces the run is under
  // way: its slices would only slow the load down.
  paused = false;
  // A time to show once the trace reaches it (a link's or embed's t).
  private pendingTime: number | null = null;
  // An event to show once the trace holds it (a link's), and a time after
  // it (a link copied between two events).
  private pendingEvent: { seq: number; t: number } | null = null;
  private playAfterSeek = false;
  private followShown = 0;
  private followTarget = -1; // the event whose scene followSlice builds ahead
  private followReady = false; // its scene is built: the next frame shows it
  private shown = { cursor: -2, now: -1 };
  private last = 0;
  private raf = 0;
  private prefetched = { seq: -1, done: true }; // see prefetchSlice

  // api is the stage's bridge, once the stage is up.
  api: Bridge | null = null;

  constructor(private hooks: PlayerHooks = {}) {}

  // start plays a freshly loaded run from its t=0 view.
  start(opts: { playing: boolean; followEnd: boolean; stopped?: string; gen: number }): void {
    this.tl.reset();
    this.tl.playing = opts.playing;
    this.followEnd = opts.followEnd;
    this.simDone = false;
    this.simHeld = false;
    this.cancelled = false;
    this.stopped = opts.stopped ?? "";
    this.gen = opts.gen;
    this.shown = { cursor: -2, now: -1 };
    this.prefetched = { seq: -1, done: true };
    this.followShown = performance.now();
    this.followTarget = -1;
    this.followReady = false;
    this.hooks.onStopped?.(this.stopped);
  }

  // deferred: the frame does nothing for the run on screen, neither
  // simulating nor building a scene ahead. A load that replaces it is
  // under way (paused) or an edit waits to start one (busy): the work
  // would be thrown away, and it lengthens the frames the load waits for.
  // Or a new run's t=0 view is not drawn yet (hold): it would delay that.
  private get deferred(): boolean {
    return this.hold || this.paused || (this.hooks.busy?.() ?? false);
  }

  // pump grows the trace by one slice of simulation. Following a growing
  // run, the frame that shows its end so far does nothing else, and once
  // the run is done the end's scene goes on being built.
  pump(): void {
    const api = this.api;
    if (!api || this.deferred) return;
    if (this.followEnd && this.followReady) {
      this.followReady = false;
      this.tl.seek(this.followTarget);
      this.followTarget = -1;
      this.followShown = performance.now();
      return;
    }
    if (this.simDone) {
      if (this.followEnd && this.followTarget >= 0) this.followSlice(true);
      return;
    }
    const r = JSON.parse(api.simulate(this.followEnd ? FOLLOW_SLICE_MS : SLICE_MS)) as SimulateReply;
    const fresh = (JSON.parse(api.trace(String(this.tl.events.length))) as { events: TraceEvent[] }).events ?? [];
    this.tl.events.push(...fresh);
    this.hooks.onEvents?.(fresh);
    this.tl.done = this.simDone = r.done;
    this.simHeld = (r.held ?? false) && !(this.hooks.onHeld?.() ?? false);
    if ((r.stopped ?? "") !== this.stopped && r.stopped) {
      this.stopped = r.stopped;
      this.hooks.onStopped?.(this.stopped);
    }
    if (this.followEnd) this.followSlice(r.done);
    this.applyPendingTime();
  }

  // followSlice keeps the end of a growing run on screen: every
  // FOLLOW_SHOW_MS, and once the run is done, the scene of its last event
  // so far is built ahead a slice per frame and then shown by the next
  // frame (built in one go, a 5,000-pod scene held a frame for 50 to 90 ms).
  private followSlice(done: boolean): void {
    const api = this.api!;
    const last = this.tl.events.length - 1;
    if (this.followTarget < 0) {
      if (!done && performance.now() - this.followShown < FOLLOW_SHOW_MS) return;
      this.followTarget = last;
    }
    if (done && this.followTarget !== last) this.followTarget = last; // the end itself, not a step short of it
    const r = JSON.parse(api.prefetch(String(this.followTarget), done ? FOLLOW_END_PREFETCH_MS : FOLLOW_PREFETCH_MS)) as { ok: boolean; done: boolean };
    if (r.ok && !r.done) return;
    this.followReady = true;
  }

  // seekTime shows simulated time t as soon as the trace has reached it:
  // at once if it has, else when the simulation gets there (or ends);
  // then playback goes on if thenPlay.
  seekTime(t: number, thenPlay = false): void {
    this.pendingTime = Math.max(0, t);
    this.pendingEvent = null;
    this.playAfterSeek = thenPlay;
    this.followEnd = false;
    this.tl.playing = false;
    this.applyPendingTime();
    this.render(true);
  }

  // seekEvent shows event seq (-1: the start) as soon as the trace holds
  // it, at time t if t falls before the next event; then playback goes on
  // if thenPlay.
  seekEvent(seq: number, t: number, thenPlay = false): void {
    this.pendingEvent = { seq, t };
    this.pendingTime = null;
    this.playAfterSeek = thenPlay;
    this.followEnd = false;
    this.tl.playing = false;
    this.applyPendingTime();
    this.render(true);
  }

  get waitingForTime(): boolean {
    return this.pendingTime !== null || this.pendingEvent !== null;
  }

  private applyPendingTime(): void {
    const ev = this.pendingEvent;
    if (ev !== null) {
      const evs = this.tl.events;
      // The event's successor tells whether t falls before it; held back
      // by an open question, it is not shown yet (it is the answer).
      if (!this.simDone && evs.length <= ev.seq + (this.simHeld ? 0 : 1)) return;
      this.pendingEvent = null;
      this.tl.seek(ev.seq);
      const next = evs[this.tl.cursor + 1];
      if (ev.t > this.tl.now && (!next || next.t >= ev.t)) this.tl.now = ev.t;
      this.tl.playing = this.playAfterSeek;
      return;
    }
    const t = this.pendingTime;
    if (t === null) return;
    const evs = this.tl.events;
    // Events at exactly t may still come: wait for one past it (or for
    // the question that holds them back).
    if (!this.simDone && !this.simHeld && (evs.length === 0 || evs[evs.length - 1].t <= t)) return;
    this.pendingTime = null;
    this.tl.scrub(t);
    this.tl.playing = this.playAfterSeek;
  }

  // cancel stops growing the trace where it is: what ran so far stays
  // and plays, marked as cut short.
  cancel(): void {
    if (this.simDone) return;
    this.tl.done = this.simDone = true;
    const evs = this.tl.events;
    const t = evs.length > 0 ? evs[evs.length - 1].t : 0;
    this.cancelled = true;
    this.stopped = tr("progress.simStopped", { t, n: evs.length.toLocaleString(lang) }, evs.length);
    this.hooks.onStopped?.(this.stopped);
    this.render(false);
  }

  play(): void {
    const tl = this.tl;
    if (tl.cursor >= tl.events.length - 1 && tl.done) tl.seek(-1); // replay from the start
    tl.playing = true;
    // The collector's pause goes before the motion, not into it.
    this.api?.collect();
    this.followEnd = false;
    this.pendingTime = null;
    this.pendingEvent = null;
    this.render(false);
  }

  pause(): void {
    this.tl.playing = false;
    this.render(false);
  }

  toggle(): void {
    if (this.tl.playing) this.pause();
    else this.play();
  }

  // act runs a user's move of the playhead and shows it.
  act(fn: () => void): void {
    this.followEnd = false;
    this.pendingTime = null;
    this.pendingEvent = null;
    fn();
    this.render(true);
  }

  // render pushes the playhead to the canvas, then lets the page update.
  render(force: boolean): void {
    const tl = this.tl;
    if (!this.api) return;
    const moved = this.shown.cursor !== tl.cursor;
    if (moved || this.shown.now !== tl.now) {
      const r = JSON.parse(this.api.seek(String(tl.cursor), String(tl.now))) as { gen: number };
      this.gen = r.gen;
      this.shown = { cursor: tl.cursor, now: tl.now };
    }
    this.hooks.onRender?.(moved, force);
  }

  // prefetchSlice has the stage build the next event's scene a slice at a
  // time, one per frame, so that the frame showing the event does not
  // build it (a 5,000-pod scene takes longer than a frame has left).
  private prefetchSlice(): void {
    const next = this.tl.cursor + 1;
    if (!this.api || next >= this.tl.events.length) return;
    if (this.prefetched.seq !== next) this.prefetched = { seq: next, done: false };
    if (this.prefetched.done) return;
    const r = JSON.parse(this.api.prefetch(String(next), PREFETCH_SLICE_MS)) as { done: boolean };
    this.prefetched.done = r.done;
  }

  // frame is one animation frame: simulate a slice, advance playback.
  frame(t: number): void {
    const dt = this.last ? Math.min(0.1, (t - this.last) / 1000) : 0;
    this.last = t;
    const deferred = this.deferred;
    const growing = !this.simDone && !deferred, playing = this.tl.playing, before = this.tl.cursor;
    this.pump();
    const cursor = this.tl.cursor;
    if (this.tl.tick(dt) || growing || cursor !== before || playing !== this.tl.playing) this.render(false);
    // Not in the frame that shows an event: the canvas takes that one.
    if (!growing && !deferred && before === this.tl.cursor) this.prefetchSlice();
  }

  // run drives frame from requestAnimationFrame until stop.
  run(): void {
    // The next frame is asked for first: an exception in one frame must
    // not stop playback for good.
    const loop = (t: number) => {
      this.raf = requestAnimationFrame(loop);
      this.frame(t);
    };
    this.raf = requestAnimationFrame(loop);
  }

  stop(): void {
    cancelAnimationFrame(this.raf);
  }
}
