// Runs a Go test binary built for js/wasm whose packages import ebiten
// (ui/adapt, ui/session) under Node: ebiten's package initialisation reads
// browser globals (window, document, navigator, Document.prototype.hidden),
// so each is a stub whose every property is a callable stub.
//   node scripts/wasm-node-stubs.cjs "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" X.wasm -test.bench ...
function stub(name) {
  const f = function () { return stub(name + "()"); };
  return new Proxy(f, {
    get(t, p) {
      if (p === Symbol.toPrimitive) return () => name;
      if (p === "then") return undefined; // not a promise
      return stub(name + "." + String(p));
    },
    construct() { return stub("new " + name); },
  });
}
globalThis.Document = class { get hidden() { return false; } };
for (const g of ["window", "document", "screen", "requestAnimationFrame"]) {
  if (!(g in globalThis)) globalThis[g] = stub(g);
}
Object.defineProperty(globalThis, "navigator", { value: stub("navigator"), configurable: true });
process.argv.splice(1, 1); // wasm_exec_node.js reads its own arguments
require(process.argv[1]);
