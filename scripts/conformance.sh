#!/usr/bin/env bash
# Conformance: compare schedplay's CLI with the upstream kube-scheduler (k8s.io/kubernetes
# v1.36, run in-process by conformance/cmd/compare) on examples/*.yaml plus generated
# scenarios, and print agreement figures per area.
#
#   scripts/conformance.sh quick            # make test: examples + 25 generated, seed 1,
#                                           # + scripts/scalegen's quick set (100-250 nodes)
#   scripts/conformance.sh full             # make conformance: examples + 3 seeds x 150,
#                                           # + scripts/scalegen's full set (100-1,000 nodes)
#   scripts/conformance.sh [N] [flags...]   # examples + N generated (seed CONFORMANCE_SEED)
#
# Environment: CONFORMANCE_SEED (default 1; N mode), CONFORMANCE_SEEDS (full mode, default
# "1 2 3"), CONFORMANCE_N (full mode per seed, default 150), OURS (a prebuilt schedplay
# binary; default: built here into conformance/bin). Exits non-zero on any unexplained
# disagreement or failed run (see conformance/DIVERGENCES.md and conformance/allowlist.json).
set -euo pipefail

MODE="${1:-20}"
shift || true
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$ROOT/conformance/bin"
mkdir -p "$BIN"

start=$(date +%s)
echo "conformance: building the upstream harness (first build of k8s.io/kubernetes takes minutes)..."
(cd "$ROOT/conformance" && go build -o "$BIN/compare" ./cmd/compare)
if [[ -z "${OURS:-}" ]]; then
  (cd "$ROOT" && go build -o "$BIN/schedplay" ./cmd/schedplay)
  OURS="$BIN/schedplay"
fi
# The large clusters run with parallelism 1 (scripts/scalegen), compared pod for pod.
SCALE="$(mktemp -d)"
trap 'rm -rf "$SCALE"' EXIT
scale() { # scale SET: write that set's scenarios and list them
  (cd "$ROOT" && go run ./scripts/scalegen -set "$1" -out "$SCALE/$1")
  ls "$SCALE/$1"/*.yaml
}
echo "conformance: built in $(( $(date +%s) - start ))s"

run() { # run SEED N [flags...]
  local seed="$1" n="$2"
  shift 2
  (cd "$ROOT/conformance" && "$BIN/compare" --root "$ROOT" --allowlist "$ROOT/conformance/allowlist.json" \
    --ours "$OURS" -n "$n" --seed "$seed" "$@")
}

case "$MODE" in
  quick)
    mapfile -t files < <(scale quick)
    run 1 25 "$@" "${files[@]}"
    ;;
  full)
    status=0
    first=1
    for seed in ${CONFORMANCE_SEEDS:-1 2 3}; do
      echo "=== seed $seed ==="
      if [[ $first == 1 ]]; then
        # The examples and the large clusters are compared once, with the first seed.
        mapfile -t files < <(scale full)
        run "$seed" "${CONFORMANCE_N:-150}" "$@" "${files[@]}" || status=1
        first=0
      else
        # The examples are compared once, with the first seed.
        run "$seed" "${CONFORMANCE_N:-150}" --no-examples "$@" || status=1
      fi
    done
    echo "conformance: total $(( $(date +%s) - start ))s"
    exit $status
    ;;
  *)
    run "${CONFORMANCE_SEED:-1}" "$MODE" "$@"
    ;;
esac
