// Bundles the page into a folder of static files: node build.mjs OUTDIR.
// The wasm binary and wasm_exec.js are put there by scripts/build-web.sh.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "build");
mkdirSync(out, { recursive: true });

await build({
  entryPoints: { main: join(here, "src/main.ts"), stage: join(here, "src/stage.ts") },
  bundle: true,
  format: "iife",
  target: "es2020",
  minify: true,
  sourcemap: "linked",
  outdir: out,
  logLevel: "warning",
});

for (const f of ["index.html", "stage.html", "stage.css"]) copyFileSync(join(here, f), join(out, f));
copyFileSync(join(here, "src/style.css"), join(out, "style.css"));

// The default scenario shown on a first visit.
const examples = join(here, "../examples");
const preferred = ["preemption-basic.yaml"].map((f) => join(examples, f)).find(existsSync);
if (!preferred) throw new Error("no default scenario in examples/");
copyFileSync(preferred, join(out, "default.yaml"));
