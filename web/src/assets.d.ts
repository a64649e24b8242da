// Names of the hashed files a bundle refers to, set by web/build.mjs
// (esbuild's define): the editor's bundle, the engine, Go's loader for it,
// the warm-up worker and the embed's lesson captions of each language it
// translates to.
declare const ASSETS: { editor: string; wasm: string; exec: string; warmWorker: string; captions?: Partial<Record<"en" | "zh-CN" | "id", string>> };
