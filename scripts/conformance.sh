#!/usr/bin/env bash
# Conformance: compare schedplay's CLI with the upstream kube-scheduler (k8s.io/kubernetes
# v1.36, run in-process by conformance/cmd/compare) on examples/*.yaml plus N generated
# scenarios (fixed seed), and print agreement figures per area.
#
#   scripts/conformance.sh [N] [compare flags...]
#
# N defaults to 20. Environment: CONFORMANCE_SEED (default 1), OURS (a prebuilt schedplay
# binary; default: compare builds ./cmd/schedplay). Exits non-zero on any unexplained
# disagreement (see conformance/DIVERGENCES.md and conformance/allowlist.json).
set -euo pipefail

N="${1:-20}"
shift || true
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="$ROOT/conformance/bin"
mkdir -p "$BIN"

start=$(date +%s)
echo "conformance: building the upstream harness (first build of k8s.io/kubernetes takes minutes)..."
(cd "$ROOT/conformance" && go build -o "$BIN/compare" ./cmd/compare)
echo "conformance: harness built in $(( $(date +%s) - start ))s"

args=(--root "$ROOT" --allowlist "$ROOT/conformance/allowlist.json" -n "$N" --seed "${CONFORMANCE_SEED:-1}")
if [[ -n "${OURS:-}" ]]; then
  args+=(--ours "$OURS")
fi
cd "$ROOT/conformance"
exec "$BIN/compare" "${args[@]}" "$@"
