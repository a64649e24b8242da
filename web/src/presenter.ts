// Presenter mode for a classroom: the editor and event log hidden, the
// canvas and the caption large, full screen, and stepping with Page Up /
// Page Down (what a presentation clicker sends) or the arrow keys. Esc (once
// nothing is open over it) or the button leaves it.
export interface PresenterHooks {
  step(d: number): void;
  quizNext(): void; // an answered question waits for "Play on"
  label(): string;
  canvas(on: boolean): void; // large labels on the canvas (ui/presenter.go)
  // dismiss closes what is open over the lesson (a dialog, the help, the
  // details panel) and reports whether there was one: Esc closes that
  // first, as everywhere, and leaves presenter mode only when nothing is.
  dismiss(): boolean;
}

export const presenterProbe = { on: false };
(window as unknown as { __schedplayPresenter: typeof presenterProbe }).__schedplayPresenter = presenterProbe;

export function setupPresenter(h: PresenterHooks): void {
  const btn = document.getElementById("presenter") as HTMLButtonElement | null;
  if (!btn) return;
  const set = (on: boolean) => {
    presenterProbe.on = on;
    document.body.classList.toggle("presenter", on);
    btn.setAttribute("aria-pressed", String(on));
    h.canvas(on);
    // The stage sizes its canvas on window resize.
    const frame = document.getElementById("stage") as HTMLIFrameElement | null;
    setTimeout(() => frame?.contentWindow?.dispatchEvent(new Event("resize")), 50);
    if (on && !document.fullscreenElement) document.documentElement.requestFullscreen?.().catch(() => { /* not allowed: stays in the window */ });
    if (!on && document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
  };
  btn.addEventListener("click", () => set(!presenterProbe.on));
  // One key press does one thing. Page Down and Page Up (what a clicker
  // sends) always step the lesson. The arrow keys step it too, except while
  // the canvas has the keyboard focus: there they move the canvas's focus
  // ring (ui/view.go), as everywhere else. Keys in the canvas's frame
  // reach this listener through the frame's document (inCanvas); a step is
  // kept from the canvas so that it does not move the ring as well.
  const onKey = (e: KeyboardEvent, inCanvas: boolean) => {
    if (!presenterProbe.on || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t?.closest(".quiz-options, .quiz-feedback") && (e.key === "Enter" || e.key === " ")) return;
    const arrow = e.key === "ArrowRight" || e.key === "ArrowLeft";
    if (arrow && inCanvas) return;
    if (arrow && t?.closest("input, select, textarea, [role=separator]")) return; // the scrubber, speed, splitter
    let d = 0;
    if (e.key === "ArrowRight" || e.key === "PageDown") d = 1;
    else if (e.key === "ArrowLeft" || e.key === "PageUp") d = -1;
    else if (e.key === "Escape") {
      // The page's own Esc handler must not close something as well.
      e.stopPropagation();
      if (!h.dismiss()) set(false);
      return;
    }
    if (d === 0) return;
    e.preventDefault();
    e.stopPropagation();
    if (d > 0) h.quizNext();
    h.step(d);
  };
  document.addEventListener("keydown", (e) => onKey(e, false), true);
  const frame = document.getElementById("stage") as HTMLIFrameElement | null;
  frame?.addEventListener("load", () => frame.contentDocument?.addEventListener("keydown", (e) => onKey(e, true), true));
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement && presenterProbe.on) set(false);
  });
}
