// Preloaded (node -r) before Go's wasm_exec_node.js: ebiten's package
// initialisation reads window, document, navigator and Document, which
// Node does not define. The hostile runner never opens a canvas, so inert
// stand-ins do: every property is a callable that returns another one.
const g = globalThis;
function inert() {
  const f = function () {};
  return new Proxy(f, {
    get(target, prop) {
      if (prop === Symbol.toPrimitive) return () => "";
      if (prop === "prototype") return target.prototype;
      return inert();
    },
    apply() { return inert(); },
    construct() { return inert(); },
  });
}
for (const name of ["window", "document", "screen"]) if (!(name in g)) g[name] = inert();
if (!("Document" in g)) g.Document = class Document { get hidden() { return true; } };
if (!("navigator" in g)) g.navigator = { userAgent: "node" };
if (!("requestAnimationFrame" in g)) g.requestAnimationFrame = () => 0;
