#!/usr/bin/env bash
# /play in headless Chromium (Debian's package): a query from the URL runs on load; the
# page's DOM holds the result table and a chart, and the screenshots show the chart's line
# or bars, and an error in place. Pixels are counted by pngcheck.py.
set -u
SHALE=$(realpath "${1:?usage: run-play-test.sh path/to/shale}")
HERE=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
. "$HERE/lib.sh"
PORT=$(free_port)
cleanup() {
  server_stop
  rm -rf "$WORK"
}
trap cleanup EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $1 (expected $2, got $3)"; }
check() { if [ "$2" == "$3" ]; then ok; else bad "$1" "$2" "$3"; fi; }
at_least() { if [ "$3" -ge "$2" ]; then ok; else bad "$1" ">= $2" "$3"; fi; }
at_most() { if [ "$3" -le "$2" ]; then ok; else bad "$1" "<= $2" "$3"; fi; }

CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then echo "FAIL: chromium is not installed (scripts/install-deps.sh installs it)"; echo "play: 0 passed, 1 failed"; exit 1; fi

server_start "$WORK/server.log" -- --http_port="$PORT" --tcp_port=0 --listen_host=127.0.0.1 --path="$WORK/data/"

B64() { printf '%s' "$1" | base64 -w0; }
chrome() { timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$WORK/profile" \
             --window-size=1000,800 --virtual-time-budget=8000 "$@" 2>/dev/null; }

check "/play is served" "200" "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/play")"
if curl -s "http://127.0.0.1:$PORT/play" | grep -q 'src="http\|href="http'; then bad "page loads nothing from outside" "no external URL" "found"; else ok; fi

# a line chart over a numeric key
LINE_URL="http://127.0.0.1:$PORT/play#$(B64 'SELECT number AS k, number * number AS v FROM numbers(20)')"
DOM=$(chrome --dump-dom "$LINE_URL")
check "query ran" "1" "$(grep -c 'data-state="done"' <<<"$DOM")"
check "table rows" "21" "$(grep -o '<tr>' <<<"$DOM" | wc -l)"
check "line chart" "1" "$(grep -c 'data-kind="line"' <<<"$DOM")"
chrome --screenshot="$WORK/line.png" "$LINE_URL"
# the chart sits under the editor (y 240-530); the line is drawn in the accent colour
at_least "line drawn" 300 "$(python3 "$HERE/pngcheck.py" "$WORK/line.png" 2a6fdb 40 240 920 530)"
at_most "no error box" 0 "$(python3 "$HERE/pngcheck.py" "$WORK/line.png" b3261e 0 230 1000 800)"

# bars over a String key
BAR_URL="http://127.0.0.1:$PORT/play#$(B64 "SELECT concat('k', toString(number)) AS k, number + 1 AS v FROM numbers(6)")"
check "bar chart" "1" "$(chrome --dump-dom "$BAR_URL" | grep -c 'data-kind="bar"')"
chrome --screenshot="$WORK/bar.png" "$BAR_URL"
at_least "bars drawn" 5000 "$(python3 "$HERE/pngcheck.py" "$WORK/bar.png" 2a6fdb 40 240 920 530)"

# no chart without a numeric column over a key
check "no chart for text" "0" "$(chrome --dump-dom "http://127.0.0.1:$PORT/play#$(B64 "SELECT 'a' AS x, 'b' AS y")" | grep -c 'data-kind="\(line\|bar\)"')"

# an error is shown in place
ERR_URL="http://127.0.0.1:$PORT/play#$(B64 'SELECT nosuchcolumn')"
DOM=$(chrome --dump-dom "$ERR_URL")
check "error state" "1" "$(grep -c 'data-state="error"' <<<"$DOM")"
check "error text" "1" "$(grep -c 'UNKNOWN_IDENTIFIER' <<<"$DOM")"
chrome --screenshot="$WORK/error.png" "$ERR_URL"
at_least "error box shown" 200 "$(python3 "$HERE/pngcheck.py" "$WORK/error.png" b3261e 0 230 1000 400)"

echo "play: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
