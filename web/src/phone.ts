// Phones and narrow windows (below 768 px, a11y.css): the canvas comes
// first and the editor is a drawer under it, opened by the header's Editor
// button.
export function setupPhone(): void {
  const main = document.getElementById("main")!;
  const button = document.getElementById("editor-toggle")!;
  button.addEventListener("click", () => {
    const open = !main.classList.contains("editor-open");
    main.classList.toggle("editor-open", open);
    button.setAttribute("aria-expanded", String(open));
    if (open) document.getElementById("editor-pane")!.scrollIntoView({ block: "start" });
  });
}

// setupMenu folds the header's buttons on a phone: Lessons and Editor
// stay, the others (language, sharing, words, presenter, reset, theme,
// motion, help) show under the Menu button, a disclosure (a11y.css).
// Called once the header is complete: Menu goes first, so that what it
// shows follows it in the focus order; Escape folds them again.
export function setupMenu(): void {
  const actions = document.getElementById("actions")!;
  const button = document.getElementById("menu")!;
  actions.prepend(button);
  const show = (open: boolean) => {
    actions.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => show(!actions.classList.contains("menu-open")));
  actions.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !actions.classList.contains("menu-open") || button.offsetParent === null) return;
    show(false);
    button.focus();
    e.stopPropagation();
  });
}
