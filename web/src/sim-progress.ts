// The progress of a long load or simulation: once one has gone on for a
// moment, a line over the canvas says how far it has got with a Cancel
// button. Cancelling a load keeps the scenario shown and the editor's text;
// cancelling a simulation stops it where it is (the trace so far stays and
// plays). A load comes first: while one is under way the line is about it.

import { lang, t } from "./i18n";

// Work that finishes sooner never shows the line (it would only flicker).
const SHOW_AFTER_MS = 300;

export class SimProgress {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly cancel: HTMLButtonElement;
  private started = 0;
  private loadStarted = 0; // performance.now() of the load under way; 0: none
  private onCancelLoad: (() => void) | null = null;

  constructor(private readonly onCancelSim: () => void) {
    this.el = document.createElement("div");
    this.el.className = "sim-progress";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    this.text = document.createElement("span");
    this.cancel = document.createElement("button");
    this.cancel.type = "button";
    this.cancel.textContent = t("progress.cancel");
    this.cancel.addEventListener("click", () => {
      if (this.loadStarted > 0) this.onCancelLoad?.();
      else this.onCancelSim();
    });
    this.el.append(this.text, this.cancel);
  }

  // start marks a new run growing.
  start(): void {
    this.started = performance.now();
    this.show(false);
  }

  // update shows the run's events and end time so far, or hides the line
  // once the run is done.
  update(done: boolean, events: number, endSeconds: number): void {
    if (this.loadStarted > 0) return;
    const show = !done && performance.now() - this.started >= SHOW_AFTER_MS;
    if (show) {
      this.text.textContent = t("progress.simulating", { n: events.toLocaleString(lang), t: Math.floor(endSeconds) }, events) + " ";
      this.cancel.setAttribute("aria-label", t("progress.cancelSim"));
    }
    this.show(show);
  }

  // loadStart marks a load under way; onCancel stops it.
  loadStart(onCancel: () => void): void {
    this.loadStarted = performance.now();
    this.onCancelLoad = onCancel;
  }

  // loadUpdate shows how much of the load is done (done of total steps).
  loadUpdate(done: number, total: number): void {
    if (this.loadStarted === 0 || performance.now() - this.loadStarted < SHOW_AFTER_MS) return;
    const pct = total > 0 ? Math.floor((100 * done) / total) : 0;
    this.text.textContent = t("progress.loading", { pct }) + " ";
    this.cancel.setAttribute("aria-label", t("progress.cancelLoad"));
    this.show(true);
  }

  // loadEnd hides the load's line; the simulation's comes back if due.
  loadEnd(): void {
    this.loadStarted = 0;
    this.onCancelLoad = null;
    this.show(false);
  }

  private show(on: boolean): void {
    if (this.el.hidden === on) this.el.hidden = !on;
  }
}
