// Bundles the site into a folder of static files:
//
//	node build.mjs OUTDIR GODIR
//
// GODIR holds main.wasm and wasm_exec.js (scripts/build-web.sh builds them).
// Every script, style sheet and the wasm binary gets a content-hashed name
// (main.3f9c2a1b7e.wasm), so a host may cache them for good; the pages, the
// embed loader (embed.js, the one name documentation sites write down) and
// the service worker (sw.js) keep stable names and are revalidated. Beside
// every file the build writes .br and .gz copies for servers that send a
// precompressed file (scripts/serve does). manifest.json maps each stable
// name to its hashed one. BROTLI_QUALITY (default 11) trades build time for
// size: 11 takes about a minute of CPU for the wasm, and is skipped when
// that hashed file was compressed before.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2] ?? join(here, "build");
const goDir = process.argv[3] ?? out;
const quality = Number(process.env.BROTLI_QUALITY ?? 11);
// The path the site is served under, for the headers file (make dist).
const basePath = (process.env.BASE_PATH ?? "/").replace(/\/*$/, "/");
if (!basePath.startsWith("/")) throw new Error(`BASE_PATH ${basePath}: a path, starting with /`);
mkdirSync(out, { recursive: true });

// names maps a stable name (main.wasm) to the name written (main.<hash>.wasm).
const names = {};
const hashOf = (buf) => createHash("sha256").update(buf).digest("hex").slice(0, 10);
const hashed = (name, buf) => `${basename(name, extname(name))}.${hashOf(buf)}${extname(name)}`;

function writeHashed(name, buf) {
  const h = hashed(name, buf);
  if (!existsSync(join(out, h))) writeFileSync(join(out, h), buf);
  names[name] = h;
  return h;
}

// The Go side: the engine and Go's loader for it.
for (const f of ["main.wasm", "wasm_exec.js"]) writeHashed(f, readFileSync(join(goDir, f)));

// esbuild's bundles, hashed by esbuild; the ones that name other assets
// get the names through ASSETS (declared in src/assets.d.ts).
async function bundle(entryPoints, opts = {}) {
  const r = await build({
    entryPoints,
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: true,
    sourcemap: "linked",
    outdir: out,
    entryNames: "[name].[hash]",
    metafile: true,
    logLevel: "warning",
    ...opts,
  });
  for (const [file, o] of Object.entries(r.metafile.outputs)) {
    if (o.entryPoint) names[`${basename(file).replace(/\.[A-Z0-9]+\.js$/, "")}.js`] = basename(file);
  }
}
// CodeMirror parses a document in the background in slices of up to 100 ms
// (Work.Slice in @codemirror/language, a constant), its deadline ignored
// where the browser has isInputPending: after a large paste or an edit of
// a large scenario those slices were the page's longest tasks. The bundle
// holds them to 40 ms; the build fails if the constant is not found.
const parseSlice = {
  name: "parse-slice",
  setup(b) {
    b.onLoad({ filter: /[\\/]@codemirror[\\/]language[\\/]dist[\\/]index\.js$/ }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const slice = "100 /* Work.Slice */";
      if (!src.includes(slice)) throw new Error(`${args.path}: no ${slice} to hold to 40 ms`);
      return { contents: src.replaceAll(slice, "40 /* Work.Slice */"), loader: "js" };
    });
  },
};
// The editor's schema (completion and hover), fetched after its first frame.
writeHashed("scenario-schema.json", readFileSync(join(here, "src/generated/scenario-schema.json")));
await bundle({ editor: join(here, "src/editor.ts") }, { define: { SCHEMA_URL: JSON.stringify(names["scenario-schema.json"]) }, plugins: [parseSlice] });
// The embed's lesson captions, one file per language they are translated
// into (src/embed-captions.ts fetches its reader's): each caption with the
// English it translates, so that an edited caption shows as written.
const lessons = join(here, "locales/lessons");
const lessonEn = JSON.parse(readFileSync(join(lessons, "en.json"), "utf8"));
const captions = {};
for (const f of readdirSync(lessons).filter((f) => f.endsWith(".json") && f !== "en.json").sort()) {
  const lang = basename(f, ".json");
  const tr = JSON.parse(readFileSync(join(lessons, f), "utf8"));
  const table = Object.fromEntries(Object.keys(tr).filter((k) => /\.caption\.\d+$/.test(k)).map((k) => [k, [lessonEn[k], tr[k]]]));
  captions[lang] = writeHashed(`captions-${lang}.json`, Buffer.from(JSON.stringify(table)));
}
// The warm-up worker (src/warm-worker.ts), which the stage frame starts.
await bundle({ "warm-worker": join(here, "src/warm-worker.ts") });
const assets = () => ({ editor: names["editor.js"], wasm: names["main.wasm"], exec: names["wasm_exec.js"], warmWorker: names["warm-worker.js"], captions });
await bundle({
  main: join(here, "src/main.ts"),
  stage: join(here, "src/stage.ts"),
  "embed-page": join(here, "src/embed.ts"),
  gallery: join(here, "src/gallery.ts"),
}, { define: { ASSETS: JSON.stringify(assets()) } });

for (const f of ["stage.css", "share.css", "editor.css", "a11y.css", "embed.css", "gallery.css"]) writeHashed(f, readFileSync(join(here, f)));
writeHashed("style.css", readFileSync(join(here, "src/style.css")));

// The pages name the hashed files; the embed page's bundle is
// embed-page.js there, since embed.js is the loader for host pages.
const pages = ["index.html", "stage.html", "embed.html", "gallery.html"];
for (const f of pages) {
  let html = readFileSync(join(here, f), "utf8");
  html = html.replace(/(href|src)="([\w.-]+\.(?:js|css|wasm))"/g, (m, attr, name) => {
    const key = f === "embed.html" && name === "embed.js" ? "embed-page.js" : name;
    if (!names[key]) throw new Error(`${f}: ${name} is not a built asset`);
    return `${attr}="${names[key]}"`;
  });
  writeFileSync(join(out, f), html);
}

// The default scenario shown on a first visit.
const examples = join(here, "../examples");
const preferred = ["preemption-basic.yaml"].map((f) => join(examples, f)).find(existsSync);
if (!preferred) throw new Error("no default scenario in examples/");
copyFileSync(preferred, join(out, "default.yaml"));

// The gallery's examples: every examples/*.yaml and a list of their names.
rmSync(join(out, "examples"), { recursive: true, force: true });
mkdirSync(join(out, "examples"), { recursive: true });
const exampleNames = readdirSync(examples).filter((f) => f.endsWith(".yaml")).sort();
for (const f of exampleNames) copyFileSync(join(examples, f), join(out, "examples", f));
writeFileSync(join(out, "examples", "index.json"), JSON.stringify(exampleNames));

// The service worker caches this deployment's files under a version made of
// their names (hashes), so a new deployment gets a new cache and never mixes
// one version's scripts with another's engine (src/sw.ts).
const shell = [...pages, "default.yaml", "examples/index.json", ...exampleNames.map((f) => `examples/${f}`),
  ...Object.values(names).filter((n) => !n.endsWith(".map"))].sort();
const version = hashOf(Buffer.from(shell.join("\n") + readFileSync(preferred, "utf8") +
  exampleNames.map((f) => readFileSync(join(examples, f), "utf8")).join("\n")));
await build({
  entryPoints: { sw: join(here, "src/sw.ts") },
  bundle: true, format: "iife", target: "es2020", minify: true, outdir: out, logLevel: "warning",
  define: { SW_VERSION: JSON.stringify(version), SW_SHELL: JSON.stringify(shell) },
});
// The loader documentation sites include with one script tag.
await build({
  entryPoints: { embed: join(here, "src/embed-loader.ts") },
  bundle: true, format: "iife", target: "es2020", minify: true, outdir: out, logLevel: "warning",
});
writeFileSync(join(out, "manifest.json"), JSON.stringify({ version, files: names }, null, 1));

// _headers, for static hosts that read one (Netlify, Cloudflare Pages): the
// same caching and framing rules as scripts/serve (docs/deploy.md).
const csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ";
writeFileSync(join(out, "_headers"), [
  ...pages.map((p) => `${basePath}${p}\n  Content-Security-Policy: ${csp}${["embed.html", "stage.html"].includes(p) ? "*" : "'self'"}\n  X-Content-Type-Options: nosniff\n`),
  ...Object.values(names).map((n) => `${basePath}${n}\n  Cache-Control: public, max-age=31536000, immutable\n`),
].join(""));

// Files of earlier builds (other hashes) go.
const keep = new Set([...pages, "default.yaml", "sw.js", "embed.js", "manifest.json", "_headers", "examples",
  ...Object.values(names), ...Object.values(names).map((n) => n + ".map")]);
for (const f of readdirSync(out)) {
  const base = f.replace(/\.(br|gz)$/, "");
  if (!keep.has(base) && /\.(js|css|wasm|map|html|json|yaml|br|gz)$/.test(f)) rmSync(join(out, f));
}

// Precompressed copies beside every file. A hashed file's copies are kept
// from an earlier build (same name, same bytes).
const hashedNames = new Set(Object.values(names));
function compressAll(dir) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) {
      compressAll(p);
      continue;
    }
    if (/\.(br|gz|map)$/.test(f) || f === "_headers") continue;
    if (hashedNames.has(f) && existsSync(p + ".br") && existsSync(p + ".gz")) continue;
    const buf = readFileSync(p);
    writeFileSync(p + ".br", brotliCompressSync(buf, {
      params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }));
    writeFileSync(p + ".gz", gzipSync(buf, { level: 9 }));
  }
}
compressAll(out);
const wasm = join(out, names["main.wasm"]);
console.log(`engine ${names["main.wasm"]}: ${statSync(wasm).size} bytes, ${statSync(wasm + ".br").size} brotli, ${statSync(wasm + ".gz").size} gzip`);
