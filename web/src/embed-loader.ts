// embed.js: the one script a documentation page includes to get embeds
// without writing iframes (docs/embedding.md):
//
//	<script src="https://PLAYGROUND/embed.js" defer></script>
//	<div data-schedplay="preemption-basic"></div>
//	<pre class="schedplay">kind: Node ...</pre>
//
// Each element becomes an iframe of embed.html, created only when it comes
// near the viewport. Options are data attributes (data-editor,
// data-readonly, data-autoplay, data-t, data-theme, data-lang, data-height,
// data-title);
// the height defaults to what the embed says it needs. A <pre>'s text is
// sent to its embed as the scenario. Elements added later (pages rendered
// on the client, as Docusaurus does) are found too.
(() => {
  const me = document.currentScript as HTMLScriptElement | null;
  const base = new URL(".", me?.src || location.href);
  const frames = new Map<Window, HTMLIFrameElement>();
  const done = new WeakSet<Element>();
  const SELECTOR = "pre.schedplay, [data-schedplay]";
  const OPTIONS = ["editor", "readonly", "autoplay", "t", "theme", "lang"];

  addEventListener("message", (e) => {
    if (e.origin !== base.origin || !e.source) return;
    const frame = frames.get(e.source as Window);
    const m = e.data as { schedplay?: number; type?: string; height?: unknown } | null;
    if (!frame || !m || m.schedplay !== 1) return;
    if (m.type === "resize" && frame.dataset.height === "auto" && typeof m.height === "number" && Number.isFinite(m.height)) {
      frame.style.height = `${Math.round(Math.min(4000, Math.max(120, m.height)))}px`;
    }
  });

  function mount(el: HTMLElement): void {
    const d = el.dataset;
    const yaml = el.matches("pre.schedplay") ? el.textContent ?? "" : null;
    const q = new URLSearchParams();
    if (yaml === null) q.set("example", d.schedplay ?? "");
    for (const k of OPTIONS) if (d[k] !== undefined) q.set(k, d[k] as string);
    const height = d.height && /^\d+$/.test(d.height) ? d.height : "auto";
    q.set("height", height);
    // This page's loader does the lazy loading; the embed starts at once,
    // or, for a <pre>, when its scenario arrives.
    q.set("load", yaml === null ? "eager" : "click");
    if (location.origin !== "null") q.set("origins", location.origin);
    const frame = document.createElement("iframe");
    frame.src = `${new URL("embed.html", base).href}?${q}`;
    frame.title = d.title || (yaml === null ? `schedplay: ${d.schedplay}` : "schedplay scenario");
    frame.dataset.height = height;
    frame.className = "schedplay-frame";
    const w = el.getBoundingClientRect().width || 600;
    frame.style.cssText = `display:block;width:100%;border:0;height:${height === "auto" ? Math.round(w * 0.625 + 40) : height}px`;
    frame.addEventListener("load", () => {
      const win = frame.contentWindow;
      if (!win) return;
      frames.set(win, frame);
      win.postMessage({ schedplay: 1, type: "hello" }, base.origin);
      if (yaml !== null) win.postMessage({ schedplay: 1, type: "load", yaml }, base.origin);
    }, { once: true });
    const box = document.createElement("div");
    box.className = "schedplay-embed";
    box.append(frame);
    el.replaceWith(box);
  }

  // Near the viewport (or at once without IntersectionObserver).
  const io = "IntersectionObserver" in window ? new IntersectionObserver((entries) => {
    for (const en of entries) {
      if (!en.isIntersecting) continue;
      io?.unobserve(en.target);
      mount(en.target as HTMLElement);
    }
  }, { rootMargin: "200px" }) : null;

  function scan(root: ParentNode): void {
    for (const el of root.querySelectorAll<HTMLElement>(SELECTOR)) {
      if (done.has(el)) continue;
      done.add(el);
      if (io) io.observe(el);
      else mount(el);
    }
  }

  const begin = () => {
    scan(document);
    new MutationObserver((records) => {
      if (records.some((r) => r.addedNodes.length > 0)) scan(document);
    }).observe(document.body, { childList: true, subtree: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin, { once: true });
  else begin();
})();
