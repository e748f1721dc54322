# SPDX-License-Identifier: BSD-3-Clause
# Shared harness of the CLI test scripts (sourced): a scratch folder, counters, and
# expect_error NAME OUTFILE CMD... (non-zero exit, one "strix: error:" line, no OUTFILE,
# no temporary left behind; EXPECT_STATUS, when set, is the exit status wanted). Sets STRIX
# from the first argument.
STRIX="$(realpath "$1")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# Whether this strix runs under AddressSanitizer (linked in or loaded: asked of its runtime).
under_address_sanitizer() { ASAN_OPTIONS=help=1 "$STRIX" --version 2>&1 | grep -q 'AddressSanitizer'; }

expect_error() {
  local name="$1" out="$2"; shift 2
  "$@" >stdout.txt 2>stderr.txt; local rc=$?
  if [ $rc -eq 0 ]; then bad "$name: exit 0"; return; fi
  if [ -n "${EXPECT_STATUS:-}" ] && [ $rc -ne "$EXPECT_STATUS" ]; then bad "$name: exit $rc, not $EXPECT_STATUS"; return; fi
  if [ "$(wc -l <stderr.txt)" -ne 1 ] || ! grep -q '^strix: error: ' stderr.txt; then
    bad "$name: expected one 'strix: error:' line, got: $(cat stderr.txt)"; return
  fi
  if [ -n "$out" ] && [ -e "$out" ]; then bad "$name: output file left behind"; return; fi
  if ls -a "$(dirname "${out:-.}")" 2>/dev/null | grep -q '^\.strix-'; then bad "$name: temporary left behind"; return; fi
  if ls -a . | grep -q '^\.strix-'; then bad "$name: temporary left behind"; return; fi
  ok
}
