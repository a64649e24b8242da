#!/usr/bin/env bash
# The decision fingerprint: sha256 of the CLI's answers (simulate --trace,
# simulate --output json, explain --output json of a few pods) for the
# generated scenarios of scripts/fingerprint and for every example. An engine
# change that is not a deliberate fidelity fix prints the same lines before
# and after; compare two trees with `diff <(A/scripts/fingerprint.sh) <(B/...)`.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/schedplay" ./cmd/schedplay
go build -o "$tmp/gen" ./scripts/fingerprint
h() { sha256sum | cut -c1-16; }
row() { # row NAME FILE [explain pods...]
  local name="$1" f="$2"
  shift 2
  local t r e=""
  t=$("$tmp/schedplay" simulate "$f" --trace --max-events 1000000 2>&1 | h)
  r=$("$tmp/schedplay" simulate "$f" --output json --max-events 1000000 2>&1 | h)
  for p in "$@"; do e="$e $("$tmp/schedplay" explain "$f" --pod "$p" --output json 2>&1 | h)"; done
  printf '%-48s trace %s result %s%s\n' "$name" "$t" "$r" "${e:+ explain$e}"
}
for s in $("$tmp/gen" -list); do
  "$tmp/gen" -shape "$s" >"$tmp/$s.yaml"
  case "$s" in
    preempt-60n) row "$s" "$tmp/$s.yaml" default/hi-000 team-b/hi-001 default/hi-014 ;;
    *) row "$s" "$tmp/$s.yaml" default/pod-00000 ;;
  esac
done
for f in examples/*.yaml; do row "$(basename "$f" .yaml)" "$f"; done
