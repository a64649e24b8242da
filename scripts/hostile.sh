#!/bin/sh
# Runs every shared hostile input (../shared/hostile-inputs beside the
# repository, or HOSTILE_DIR) natively through the CLI and as WebAssembly
# under Node through the page's engine path (scripts/hostile: load through
# a scenario.Cache within the page's budget, then the run to its end),
# printing each one's outcome, wall time and peak memory. Generators (*.sh)
# are run first with their default sizes. Fails when an input panics, runs
# out of memory or takes longer than TIMEOUT seconds (default 60); a
# positioned refusal or a finished run passes. Skips when the folder is
# absent.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
go=${GO:-go}
dir=${HOSTILE_DIR:-$root/../shared/hostile-inputs}
limit=${TIMEOUT:-60}
if [ ! -d "$dir" ]; then
	echo "hostile: $dir is absent; skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
"$go" build -o "$tmp/schedplay" ./cmd/schedplay
# With the page's runtime (scripts/wasmrt): what exhausts or stalls the page
# must do so here too.
overlay=$("$go" run ./scripts/wasmrt -dir "$tmp/wasmrt")
GOOS=js GOARCH=wasm "$go" build -overlay="$overlay" -o "$tmp/hostile.wasm" ./scripts/hostile
execjs="$("$go" env GOROOT)/lib/wasm/wasm_exec_node.js"
[ -f "$execjs" ] || execjs="$("$go" env GOROOT)/misc/wasm/wasm_exec_node.js"
mkdir "$tmp/in"
cp "$dir"/*.yaml "$tmp/in/" 2>/dev/null || true
for g in "$dir"/*.sh; do
	[ -f "$g" ] && (cd "$tmp/in" && sh "$g" >/dev/null)
done
fail=0
# one KIND FILE CMD...: runs CMD under timeout and /usr/bin/time, prints a row.
one() {
	kind=$1 f=$2
	shift 2
	set +e
	/usr/bin/time -f '%e %M' -o "$tmp/time" timeout "$limit" "$@" >"$tmp/out" 2>&1
	rc=$?
	set -e
	read -r secs kb <<EOT
$(tail -n 1 "$tmp/time")
EOT
	verdict=ok
	if [ "$rc" -eq 124 ]; then
		verdict="TIMEOUT after ${limit}s"
	elif grep -q -e '^panic:' -e '^fatal error:' -e 'out of memory' -e 'RangeError' "$tmp/out"; then
		verdict="CRASH (exit $rc)"
	elif [ "$rc" -gt 1 ]; then
		verdict="exit $rc"
	fi
	[ "$verdict" = ok ] || fail=1
	first=$(grep -v '^{' "$tmp/out" | head -n 1 | cut -c1-110)
	[ -n "$first" ] || first="$(wc -l <"$tmp/out" | tr -d ' ') trace lines"
	printf '%-30s %-6s %7ss %6d MB  %-8s %s\n' "$(basename "$f")" "$kind" "$secs" $((kb / 1024)) "$verdict" "$first"
}
printf '%-30s %-6s %8s %9s  %-8s %s\n' input path time peak verdict outcome
for f in "$tmp"/in/*.yaml; do
	one cli "$f" "$tmp/schedplay" simulate "$f" --trace
	one wasm "$f" node --stack-size=8192 -r ./scripts/hostile/node-globals.cjs "$execjs" "$tmp/hostile.wasm" "$f"
done
exit $fail
