#!/bin/sh
# Runs the engine's simulation benchmarks natively and as WebAssembly under
# Node's wasm_exec (V8, the engine Chromium runs), one after the other in one
# run, and prints pods/s for each and the wasm/native ratio.
#
#   scripts/bench-wasm.sh [BENCH_REGEXP] [COUNT]
#
# BENCH_REGEXP defaults to the two 5,000-node / 10,000-pod simulations
# (plain and zone spread); COUNT (default 3) runs of each, alternating
# native and wasm so drift on a shared machine hits both alike.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
go=${GO:-go}
bench=${1:-'^BenchmarkSimulate10000PodsOn5000Nodes(ZoneSpread)?$'}
count=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$root"
"$go" test -c -o "$tmp/native.test" ./core/engine
# The wasm binary is built as the page's is: with the runtime overlay that
# grows linear memory ahead and marks in idle time in slices (scripts/wasmrt
# says why).
overlay=$("$go" run ./scripts/wasmrt -dir "$tmp/wasmrt")
GOOS=js GOARCH=wasm "$go" test -c -trimpath -overlay="$overlay" -o "$tmp/engine.wasm" ./core/engine
execjs="$("$go" env GOROOT)/lib/wasm/wasm_exec_node.js"
[ -f "$execjs" ] || execjs="$("$go" env GOROOT)/misc/wasm/wasm_exec_node.js"
# The test binaries run in the package directory, as go test runs them.
cd core/engine
# Each benchmark runs in a process of its own, as a page's first large run
# starts with a small heap: one run after another in one process would find
# memory the first had grown.
names=$("$tmp/native.test" -test.list "$bench" | grep '^Benchmark' || true)
[ -n "$names" ] || { echo "no benchmark matches $bench" >&2; exit 1; }
i=0
while [ "$i" -lt "$count" ]; do
	for name in $names; do
		"$tmp/native.test" -test.run XXX -test.bench "^$name\$" -test.benchtime 1x >>"$tmp/native.out"
		node --stack-size=8192 "$execjs" "$tmp/engine.wasm" -test.run XXX -test.bench "^$name\$" -test.benchtime 1x >>"$tmp/wasm.out"
	done
	i=$((i + 1))
done
# Medians per benchmark, and their wasm/native ratio, of three figures:
#   pods/s      wall time: the whole simulation, as the page waits for it;
#   pods/cpu-s  CPU time of the process (native: getrusage, all threads,
#               the collector's included; wasm: Node's, from /proc, V8's
#               compiler threads included);
#   thread-cpu  wasm: CPU time of the thread running Go alone (its
#               collector included, V8's compiler threads not), against
#               native's pods/cpu-s.
# On a shared machine wall time moves between runs by up to 2x; CPU time
# far less (it still grows somewhat with load). Quote the load average and
# compare trees back to back.
awk '
	function median(list,    n, a, i, j, t) {
		n = split(list, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	FNR == 1 { kind = (FILENAME ~ /native/) ? "native" : "wasm" }
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
		for (i = 2; i < NF; i++) if ($(i+1) ~ /^pods\/(s|cpu-s|thread-cpu-s)$/) v[kind, name, $(i+1)] = v[kind, name, $(i+1)] " " $i
		names[name] = 1
	}
	END {
		printf "%-40s %-11s %9s %9s %7s\n", "benchmark (medians)", "metric", "native", "wasm", "ratio"
		for (n in names) for (m = 1; m <= 3; m++) {
			metric = m == 1 ? "pods/s" : "pods/cpu-s"
			wmetric = m == 3 ? "pods/thread-cpu-s" : metric
			# CPU time needs getrusage natively and /proc in wasm.
			if (v["native", n, metric] == "" || v["wasm", n, wmetric] == "") continue
			a = median(v["native", n, metric]); b = median(v["wasm", n, wmetric])
			printf "%-40s %-11s %9.0f %9.0f %6.2fx\n", n, (m == 3 ? "thread-cpu" : metric), a, b, (a > 0 ? b / a : 0)
		}
		print "runs (native | wasm):"
		for (n in names) {
			printf "  %s pods/s:%s |%s\n", n, v["native", n, "pods/s"], v["wasm", n, "pods/s"]
			printf "  %s pods/cpu-s:%s |%s (thread:%s)\n", n, v["native", n, "pods/cpu-s"], v["wasm", n, "pods/cpu-s"], v["wasm", n, "pods/thread-cpu-s"]
		}
	}
' "$tmp/native.out" "$tmp/wasm.out"
