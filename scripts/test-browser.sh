#!/usr/bin/env bash
# Opens a run report in headless Chromium (Debian's chromium package) and checks that the page loads
# without console errors and that its charts hold the run's data. Not part of `npm test` (it needs
# Chromium); run it with `npm run test:browser`. Installs Chromium with apt-get when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v chromium >/dev/null || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; }
work=$(mktemp -d)
npm run -s build
node dist/cli/main.js tune -c configs/smoke.json --db "$work/run.sqlite" >/dev/null 2>&1
node dist/cli/main.js export 1 --db "$work/run.sqlite" --out "$work/best.json" 2>/dev/null
node dist/cli/main.js compare "$work/best.json" nneonneo -n 20 -d 0 --db "$work/run.sqlite" --run 1 >/dev/null 2>&1
node dist/cli/main.js report 1 --db "$work/run.sqlite" --out "$work/report.html" >/dev/null
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --user-data-dir="$work/profile" --enable-logging=stderr --v=0)
chromium "${flags[@]}" --dump-dom "file://$work/report.html" > "$work/dom.html" 2> "$work/console.log"
chromium "${flags[@]}" --window-size=1000,2400 --screenshot="$work/report.png" "file://$work/report.html" 2>/dev/null
fail=0
if grep -E 'CONSOLE.*(Error|error)|Uncaught' "$work/console.log"; then echo "console errors"; fail=1; fi
lines=$(grep -o '<polyline class="series"' "$work/dom.html" | wc -l)
gens=$(node dist/cli/main.js show 1 --db "$work/run.sqlite" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).generations.length))')
points=$(grep -o '<polyline class="series" data-name="best" points="[^"]*"' "$work/dom.html" | sed 's/.*points="//; s/"$//' | wc -w)
[ "$lines" -ge 5 ] || { echo "expected at least 5 chart lines (fitness, step, parameters, two score distributions), found $lines"; fail=1; }
grep -q '<figure id="comparison-1">' "$work/dom.html" || { echo "the stored comparison is missing"; fail=1; }
[ "$points" -eq "$gens" ] || { echo "best-fitness line has $points points for $gens generations"; fail=1; }
echo "report: $lines chart lines, $points points on the best-fitness line ($gens generations); screenshot $work/report.png"
[ "$fail" -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
