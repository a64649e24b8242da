// Names of the hashed files a bundle refers to, set by web/build.mjs
// (esbuild's define): the editor's bundle and the engine.
declare const ASSETS: { editor: string; wasm: string };
