// The progress of a long simulation: once a run has grown for a moment
// without finishing, a line over the canvas says how far it has got
// (events and simulated time, from the trace the engine returned) with a
// Cancel button, which stops the simulation where it is; the trace so far
// stays and plays.

// Runs that finish sooner never show the line (it would only flicker).
const SHOW_AFTER_MS = 300;

export class SimProgress {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private started = 0;

  constructor(onCancel: () => void) {
    this.el = document.createElement("div");
    this.el.className = "sim-progress";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    this.text = document.createElement("span");
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.setAttribute("aria-label", "Cancel the simulation (keeps the events so far)");
    cancel.addEventListener("click", onCancel);
    this.el.append(this.text, cancel);
  }

  // start marks a new run growing.
  start(): void {
    this.started = performance.now();
    this.el.hidden = true;
  }

  // update shows the run's events and end time so far, or hides the line
  // once the run is done.
  update(done: boolean, events: number, endSeconds: number): void {
    const show = !done && performance.now() - this.started >= SHOW_AFTER_MS;
    if (show) this.text.textContent = `Simulating… ${events.toLocaleString("en")} events, t=${Math.floor(endSeconds)}s `;
    if (this.el.hidden === show) this.el.hidden = !show;
  }
}
