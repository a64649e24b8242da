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
