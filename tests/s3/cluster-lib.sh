# Shared by the s3Cluster test scripts (sourced, not run; needs $HERE = tests/s3):
#   rgw_start          skips the script (exit 0) when radosgw is missing or cannot start,
#                      else starts one on 127.0.0.1: sets EP, tmp (a scratch directory) and
#                      a trap that calls the script's cleanup_more, stops radosgw and removes tmp
#   check NAME WANT GOT / check_has NAME NEEDLE GOT    count into pass / fail
#   s3c CURL-ARGS…     curl signed for the test user; K is its key and secret as s3() arguments
. "$HERE/../server/lib.sh" # free_port, stop_pids
rgw_start() {
  if ! command -v radosgw >/dev/null || ! command -v ceph-mon >/dev/null; then
    echo "SKIP: radosgw/ceph-mon not installed (scripts/install-deps.sh installs them)"; exit 0
  fi
  local port mon
  port=$(free_port); mon=$(free_port)
  EP="http://127.0.0.1:$port"
  tmp=$(mktemp -d)
  trap 'cleanup_more; "$HERE/stop-ceph.sh" "$tmp/rgw" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
  if ! timeout 120 "$HERE/start-ceph.sh" "$tmp/rgw" "$port" "$mon" >"$tmp/start.log" 2>&1; then
    echo "SKIP: radosgw could not be started here:"; tail -5 "$tmp/start.log"; exit 0
  fi
}
pass=0; fail=0
check() { # name, expected, actual
  if [ "$2" == "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want: %s\n  got:  %s\n' "$1" "$(printf '%s' "$2" | head -c 600)" "$(printf '%s' "$3" | head -c 600)"; fi
}
check_has() { # name, needle, haystack
  if [[ "$3" == *"$2"* ]]; then pass=$((pass+1)); else fail=$((fail+1)); printf 'FAIL %s\n  want substring: %s\n  got:  %s\n' "$1" "$2" "$(printf '%s' "$3" | head -c 600)"; fi
}
s3c() { curl -sf --aws-sigv4 "aws:amz:us-east-1:s3" --user "TESTKEY:TESTSECRET" -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' "$@"; }
K="'TESTKEY', 'TESTSECRET'"
