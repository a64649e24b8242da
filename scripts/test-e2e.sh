#!/bin/sh
# Browser end-to-end tests: builds the playground, serves it on a free port
# of 127.0.0.1 and drives it with headless Chromium (web/e2e/*.test.mjs).
# On a fresh Debian machine it installs Chromium first (needs root).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
go=${GO:-go}
# Fonts for the pages' own text (the canvas brings its own): without a
# Chinese one, zh-CN pages and their screenshots show empty boxes.
need=""
[ -x /usr/bin/chromium ] || need="chromium fonts-dejavu-core"
[ -e /usr/share/fonts/truetype/wqy/wqy-microhei.ttc ] || need="$need fonts-wqy-microhei"
if [ -n "$need" ]; then
	apt-get update
	apt-get install -y --no-install-recommends $need
fi
cd "$root/web"
npm ci --no-audit --no-fund
# The page's TypeScript, type checked (esbuild bundles without looking).
npm run --silent typecheck
# Unit tests of the page's modules (permalinks, drafts): node alone.
node --test --test-reporter=spec unit/
cd "$root"
BROTLI_QUALITY=${BROTLI_QUALITY:-9} "$root/scripts/build-web.sh" "$root/web/build"
tmp=$(mktemp -d)
"$go" build -o "$tmp/serve" ./scripts/serve

log=$tmp/serve.log
"$tmp/serve" -dir "$root/web/build" -port 0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$tmp"' EXIT INT TERM
url=""
for _ in $(seq 50); do
	url=$(sed -n 's/^schedplay playground: //p' "$log")
	[ -n "$url" ] && break
	sleep 0.1
done
if [ -z "$url" ]; then
	cat "$log"
	echo "test-e2e: the server did not start" >&2
	exit 1
fi
cd "$root/web"
SCHEDPLAY_URL=$url node --test --test-reporter=spec e2e/
