// The warm-up worker: the stage frame's own compiled WebAssembly module,
// run here with nothing to show, does the engine's warm-up (ui/session's
// Warm) and reports. A browser keeps one copy of a module's compiled code
// for every instance that shares the module, so the code this run gets
// compiled optimized is what the page's next large paste runs, and the
// compiling happened on another core (docs/performance-web.md).
/// <reference lib="webworker" />
import type { WarmReport } from "./bridge";

declare const Go: { new (): { importObject: WebAssembly.Imports; run(i: WebAssembly.Instance): Promise<void> } };
declare function importScripts(...urls: string[]): void;

// ebiten's package initialisation reads browser globals (window, document,
// navigator's keyboard, Document.prototype.hidden) that a worker lacks:
// each is a stub whose every property is a callable stub, as for the
// wasm tests under Node (scripts/wasm-node-stubs.cjs). Nothing is drawn.
function stub(name: string): unknown {
  const f = function () { return stub(`${name}()`); }; // a function: a Proxy of it can be new'd
  return new Proxy(f, {
    get(_t, p) {
      if (p === Symbol.toPrimitive) return () => name;
      if (p === "then") return undefined; // not a promise
      return stub(`${name}.${String(p)}`);
    },
    construct: () => stub(`new ${name}`) as object,
  });
}
const g = globalThis as unknown as Record<string, unknown>;
g.Document = class { get hidden() { return true; } };
for (const name of ["window", "document", "screen", "requestAnimationFrame"]) if (!(name in g)) g[name] = stub(name);
// wasm/main.go runs only the warm-up when it finds this.
g.schedplayWarmOnly = true;

const post = (r: WarmReport) => (self as unknown as Worker).postMessage(r);
self.onmessage = async (e: MessageEvent<{ exec: string; module: WebAssembly.Module }>) => {
  try {
    importScripts(e.data.exec);
    const go = new Go();
    await go.run(await WebAssembly.instantiate(e.data.module, go.importObject));
    // wasm/main.go posts its report before it returns; this one says it
    // ended without one (a panic, printed to the console).
    post({ ok: false, error: "the warm-up ended without a report" });
  } catch (err) {
    post({ ok: false, error: String(err) });
  }
};
