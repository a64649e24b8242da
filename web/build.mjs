// Bundles the page into a folder of static files: node build.mjs OUTDIR.
// The wasm binary and wasm_exec.js are put there by scripts/build-web.sh.
import { build } from "esbuild";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "build");
mkdirSync(out, { recursive: true });

await build({
  entryPoints: {
    main: join(here, "src/main.ts"),
    editor: join(here, "src/editor.ts"),
    stage: join(here, "src/stage.ts"),
    embed: join(here, "src/embed.ts"),
    gallery: join(here, "src/gallery.ts"),
  },
  bundle: true,
  format: "iife",
  target: "es2020",
  minify: true,
  sourcemap: "linked",
  outdir: out,
  logLevel: "warning",
});

for (const f of ["index.html", "stage.html", "stage.css", "share.css", "embed.html", "embed.css", "gallery.html", "gallery.css"]) {
  copyFileSync(join(here, f), join(out, f));
}
copyFileSync(join(here, "src/style.css"), join(out, "style.css"));

// The default scenario shown on a first visit.
const examples = join(here, "../examples");
const preferred = ["preemption-basic.yaml"].map((f) => join(examples, f)).find(existsSync);
if (!preferred) throw new Error("no default scenario in examples/");
copyFileSync(preferred, join(out, "default.yaml"));

// The gallery's examples: every examples/*.yaml and a list of their names.
mkdirSync(join(out, "examples"), { recursive: true });
const names = readdirSync(examples).filter((f) => f.endsWith(".yaml")).sort();
for (const f of names) copyFileSync(join(examples, f), join(out, "examples", f));
writeFileSync(join(out, "examples", "index.json"), JSON.stringify(names));
