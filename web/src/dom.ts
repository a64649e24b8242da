// el builds an element with text: scenario text is untrusted, so it reaches
// the DOM through textContent only. Its own module so that modules tested
// under Node (explain-table) do not load the page's panels with it.
export function el(tag: string, cls?: string, text?: string): HTMLElement {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
