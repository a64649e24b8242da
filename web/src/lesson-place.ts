// Where the lesson panel (title, caption, question) sits. Under the canvas
// it took half the height of a 1280x720 projector, leaving the canvas about
// 280 px; on a desktop-sized window it goes at the top of the editor's
// column instead, so the canvas keeps the stage's whole height. Phones
// (the editor is a closed drawer there) and presenter mode (its own layout
// beside the canvas) keep it in the stage pane.
export function setupLessonPlace(): () => void {
  const lesson = document.getElementById("lesson")!;
  const editorPane = document.getElementById("editor-pane")!;
  const stagePane = document.getElementById("stage-pane")!;
  const timeline = document.getElementById("timeline")!;
  const wide = matchMedia("(min-width: 768px)");
  const place = () => {
    const beside = wide.matches && !document.body.classList.contains("presenter");
    if (beside ? lesson.parentElement === editorPane : lesson.nextElementSibling === timeline) return;
    // Moving an element blurs what has the focus inside it: give it back.
    const focused = lesson.contains(document.activeElement) ? document.activeElement as HTMLElement : null;
    if (beside) editorPane.prepend(lesson);
    else stagePane.insertBefore(lesson, timeline);
    document.getElementById("main")!.classList.toggle("lesson-beside", beside);
    focused?.focus({ preventScroll: true });
  };
  wide.addEventListener("change", place);
  new MutationObserver(place).observe(document.body, { attributes: true, attributeFilter: ["class"] });
  place();
  return place;
}
