// Presenter mode for a classroom: the editor and event log hidden, the
// canvas and the caption large, full screen, and stepping with the arrow
// keys or Page Up / Page Down (what a presentation clicker sends). Esc or
// the button leaves it.
export interface PresenterHooks {
  step(d: number): void;
  quizNext(): void; // an answered question waits for "Play on"
  label(): string;
  canvas(on: boolean): void; // large labels on the canvas (ui/presenter.go)
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
  const onKey = (e: KeyboardEvent) => {
    if (!presenterProbe.on || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    if (t?.closest(".quiz-options, .quiz-feedback") && (e.key === "Enter" || e.key === " ")) return;
    if (e.key === "ArrowRight" || e.key === "PageDown") {
      e.preventDefault();
      h.quizNext();
      h.step(1);
    } else if (e.key === "ArrowLeft" || e.key === "PageUp") {
      e.preventDefault();
      h.step(-1);
    } else if (e.key === "Escape") {
      set(false);
    }
  };
  document.addEventListener("keydown", onKey, true);
  const frame = document.getElementById("stage") as HTMLIFrameElement | null;
  frame?.addEventListener("load", () => frame.contentDocument?.addEventListener("keydown", onKey, true));
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement && presenterProbe.on) set(false);
  });
}
