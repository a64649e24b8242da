// Reduced motion: under prefers-reduced-motion, or when the person turns it
// on with the header's toggle (remembered), the canvas cuts from state to
// state instead of gliding chips (ui/anim.go Motion.Instant) and the page
// drops its transitions and smooth scrolling (a11y.css, data-motion).
import type { Bridge } from "./bridge";

const KEY = "schedplay.motion";

export class MotionSetting {
  reduce: boolean;
  private api: Bridge | null = null;
  // cutting: the canvas cuts whatever the setting (see cut).
  private cutting = false;

  constructor(private readonly button: HTMLElement) {
    const saved = localStorage.getItem(KEY);
    this.reduce = saved ? saved === "reduce" : matchMedia("(prefers-reduced-motion: reduce)").matches;
    button.addEventListener("click", () => {
      this.reduce = !this.reduce;
      localStorage.setItem(KEY, this.reduce ? "reduce" : "full");
      this.apply();
    });
    matchMedia("(prefers-reduced-motion: reduce)").addEventListener("change", (e) => {
      if (localStorage.getItem(KEY)) return; // the person's choice wins
      this.reduce = e.matches;
      this.apply();
    });
    this.apply();
  }

  // attach applies the setting to the canvas once its bridge is up.
  attach(api: Bridge): void {
    this.api = api;
    this.apply();
  }

  // cut has the canvas cut from scene to scene while on (the page follows
  // an edited run as it grows: each scene shown is soon replaced, and a
  // glide repaints the canvas every frame, some 50 ms of SwiftShader work
  // that the frame's commit waits for), whatever the setting; off gives
  // the setting back.
  cut(on: boolean): void {
    if (on === this.cutting) return;
    this.cutting = on;
    this.api?.setMotion(this.reduce || on ? "reduce" : "full");
  }

  private apply(): void {
    document.documentElement.dataset.motion = this.reduce ? "reduce" : "full";
    this.button.setAttribute("aria-pressed", String(this.reduce));
    this.api?.setMotion(this.reduce || this.cutting ? "reduce" : "full");
  }
}
