// Loads a TypeScript module of web/src for node's test runner: esbuild
// bundles it (with its npm imports) into a temporary ES module.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const web = join(dirname(fileURLToPath(import.meta.url)), "..");

// name is relative to web/src ("../unit/x.ts" for a test's own entry).
export async function loadTS(name) {
  const dir = mkdtempSync(join(tmpdir(), "schedplay-unit-"));
  const out = join(dir, basename(name).replace(/\.ts$/, ".mjs"));
  try {
    await build({
      entryPoints: [join(web, "src", name)],
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      outfile: out,
      logLevel: "warning",
    });
    return await import(pathToFileURL(out).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
