#!/bin/sh
# Builds the playground into a folder of static files (default web/build):
# the wasm binary, Go's wasm_exec.js and the esbuild bundles of web/, with
# content-hashed names and precompressed .br/.gz copies (web/build.mjs).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/web/build}
go=${GO:-go}
mkdir -p "$out"
out=$(cd "$out" && pwd)
godir=$(mktemp -d)
trap 'rm -rf "$godir"' EXIT INT TERM
cd "$root"
# The engine builds against a copy of ebiten whose built-in shaders are
# rendered now rather than by text/template at start-up: with text/template
# in the binary Go's linker keeps every exported method, 3.6 MB of the wasm
# (scripts/ebitenpatch says why; its test checks the shaders are the same).
modfile=$("$go" run ./scripts/ebitenpatch -dir "$godir/mod")
# The Go runtime grows linear memory ahead, by an eighth at a time, and
# stops idle-time marking after 8 ms of each turn the page gives Go, so a
# collection does not hold the page for its whole mark (scripts/wasmrt says
# why).
overlay=$("$go" run ./scripts/wasmrt -dir "$godir/wasmrt")
GOOS=js GOARCH=wasm "$go" build -modfile="$modfile" -overlay="$overlay" -trimpath -ldflags='-s -w' -o "$godir/main.wasm" ./wasm
cp "$("$go" env GOROOT)/lib/wasm/wasm_exec.js" "$godir/wasm_exec.js"
cd web
# npm ci only when the lockfile changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	npm ci --no-audit --no-fund
fi
node build.mjs "$out" "$godir"
echo "built $out"
