// When the playground loads what is typed (main.ts wires it to the editor
// and the stage).
//
// An edit loads as soon as the editor has shown its keystroke (after that
// frame, so keystrokes within one frame make one load): the first
// keystroke after a pause, and every keystroke while loads are cheap
// (CHEAP_MS), so that the canvas follows the text as it is typed. Where a
// load costs more (thousands of pods), each would slow the next down, so a
// keystroke within QUIET_MS of the last stops the work for the older text
// (the stale hook) and the burst loads once, when typing pauses. A newer
// load stops one under way (loads work in slices, each a task of its own),
// so a keystroke waits for at most a slice. What a load says in words (the
// status, the notice, the problems, the editor's marks) waits until typing
// has paused QUIET_MS (whenQuiet): a half-typed word flashes no error, and
// a screen reader hears one status per pause instead of one per keystroke.

export const QUIET_MS = 250;
export const CHEAP_MS = 40;

// PaceClock is the page's time: performance.now, a frame, timers.
export interface PaceClock {
  now(): number;
  afterFrame(fn: () => void): void;
  after(fn: () => void, ms: number): number;
  cancel(id: number): void;
}

export interface PaceHooks {
  load(): void; // load the editor's text now
  stale(): void; // typing has left the text on screen behind
}

export class EditPace {
  lastEditAt = 0; // clock time of the last edit
  private cost = 0; // the last load's time to its reply
  private queued = false; // a load waits for the keystroke's frame
  private pauseTimer: number | undefined; // a load waits for typing to pause
  private quietTimer: number | undefined;

  constructor(private clock: PaceClock, private hooks: PaceHooks) {}

  // pending: an edit has not started its load yet.
  get pending(): boolean {
    return this.queued || this.pauseTimer !== undefined;
  }

  // edit is one change of the text.
  edit(): void {
    const now = this.clock.now();
    const typing = now - this.lastEditAt < QUIET_MS;
    this.lastEditAt = now;
    // Words held for the pause describe an older text.
    this.clearQuiet();
    this.drop();
    if (typing && this.cost > CHEAP_MS) {
      this.hooks.stale();
      this.pauseTimer = this.clock.after(() => {
        this.pauseTimer = undefined;
        this.queue();
      }, QUIET_MS);
    } else this.queue();
  }

  // loaded says what the last load cost, from its start to its reply.
  loaded(ms: number): void {
    this.cost = ms;
  }

  // drop forgets an edit's load that has not started: the text was loaded
  // by other means.
  drop(): void {
    this.queued = false;
    if (this.pauseTimer !== undefined) this.clock.cancel(this.pauseTimer);
    this.pauseTimer = undefined;
  }

  // whenQuiet runs say once typing has paused QUIET_MS (at once if it has);
  // a newer call or edit replaces it.
  whenQuiet(say: () => void): void {
    this.clearQuiet();
    const wait = this.lastEditAt + QUIET_MS - this.clock.now();
    if (wait <= 0) {
      say();
      return;
    }
    this.quietTimer = this.clock.after(() => {
      this.quietTimer = undefined;
      say();
    }, wait);
  }

  private clearQuiet(): void {
    if (this.quietTimer !== undefined) this.clock.cancel(this.quietTimer);
    this.quietTimer = undefined;
  }

  private queue(): void {
    if (this.queued) return;
    this.queued = true;
    this.clock.afterFrame(() => {
      if (!this.queued) return; // dropped meanwhile
      this.queued = false;
      this.hooks.load();
    });
  }
}

// afterFrame runs fn once the next frame is out (or after 100 ms where no
// frames come, as in a hidden tab), for work that must not delay it.
export function afterFrame(fn: () => void): void {
  let done = false;
  const once = () => {
    if (!done) {
      done = true;
      fn();
    }
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

// pageClock is the page's own clock, for the playground and the embed.
export const pageClock: PaceClock = {
  now: () => performance.now(),
  afterFrame,
  after: (fn, ms) => window.setTimeout(fn, ms),
  cancel: (id) => clearTimeout(id),
};
