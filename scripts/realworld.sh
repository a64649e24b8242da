#!/usr/bin/env bash
# Real-world check: run every scenario of the team's shared real-manifest corpus
# (../shared/realworld beside the repository: public manifests and node dumps with
# upstream kube-scheduler's answers stored in the contract's JSON) through the CLI and
# compare explain and simulate with those answers (conformance/cmd/realworld). Skips,
# exit 0, when the corpus is absent. OURS: a prebuilt schedplay binary (default: built
# here); REALWORLD_DIR overrides the corpus location; extra arguments go to the command
# (-v: one line per scenario).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${REALWORLD_DIR:-$ROOT/../shared/realworld}"
if [[ ! -d "$DIR" ]]; then
  echo "realworld: no corpus at $DIR; skipped"
  exit 0
fi
BIN="$ROOT/conformance/bin"
mkdir -p "$BIN"
(cd "$ROOT/conformance" && go build -o "$BIN/realworld" ./cmd/realworld)
if [[ -z "${OURS:-}" ]]; then
  (cd "$ROOT" && go build -o "$BIN/schedplay" ./cmd/schedplay)
  OURS="$BIN/schedplay"
fi
exec "$BIN/realworld" --ours "$OURS" "$@" "$DIR"
