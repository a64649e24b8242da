// Keyboard and screen-reader glue of the playground: the canvas's keyboard
// focus (moved by arrow keys inside the stage frame, ui/view.go) is
// announced in a live region with the text view's sentence, and the
// text view's toggle.
import type { Bridge } from "./bridge";
import { t } from "./i18n";
import { TextView } from "./textview";

export interface KeyboardHooks {
  api(): Bridge | null;
  // select selects a pod or node on the canvas and opens its details.
  select(kind: "pod" | "node", key: string): void;
}

export class Keyboard {
  readonly text: TextView;
  private readonly live: HTMLElement;

  constructor(private readonly hooks: KeyboardHooks) {
    this.live = document.getElementById("canvas-live")!;
    const root = document.getElementById("textview")!;
    this.text = new TextView(root, hooks.api, (kind, key) => {
      hooks.select(kind, key);
    });
    const toggle = document.getElementById("tl-text")!;
    toggle.addEventListener("click", () => {
      this.text.setOpen(!this.text.open);
      toggle.setAttribute("aria-pressed", String(this.text.open));
    });
  }

  // focused announces what the canvas's keyboard focus moved to.
  focused(kind: string, key: string): void {
    this.live.textContent = kind === "" ? t("describe.nothing") : t("describe.enter", { sentence: this.text.sentence(kind, key) });
  }
}
