# Shared by the clrdx test scripts (source it): a temporary folder, pass/fail counting, and
# expect/same/says. The sourcing script sets clrdx and ends with `finish`.
dev=${RDX_DEVICE:-cpu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect CODE DESCRIPTION -- command...: exit code CODE; on error exactly one line on stderr.
expect() {
  local code=$1 what=$2; shift 3
  local t0=${RDX_TEST_TIMES:+$(date +%s.%N)}
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  # RDX_TEST_TIMES=FILE: each command's seconds and description, to find the slow ones.
  [ -n "${RDX_TEST_TIMES:-}" ] && awk -v a="$t0" -v b="$(date +%s.%N)" -v w="$what" 'BEGIN { printf "%.2f %s\n", b - a, w }' >>"$RDX_TEST_TIMES"
  if [ "$rc" != "$code" ]; then bad "$what: exit $rc, want $code; stderr: $(head -3 "$tmp/err")"; return; fi
  if [ "$code" != 0 ] && [ "$code" != "help" ]; then
    local lines; lines=$(grep -c . "$tmp/err")
    [ "$lines" = 1 ] || { bad "$what: $lines lines on stderr, want 1: $(cat "$tmp/err")"; return; }
    [ -s "$tmp/out" ] && { bad "$what: wrote to stdout on error"; return; }
  fi
  ok
}
# same OUT DESCRIPTION: stdout of the last expect equals OUT
same() { [ "$(cat "$tmp/out")" = "$1" ] && ok || bad "$2: stdout '$(cat "$tmp/out")', want '$1'"; }
# says TEXT DESCRIPTION: stderr of the last expect contains TEXT
says() { grep -qF -- "$1" "$tmp/err" && ok || bad "$2: stderr '$(cat "$tmp/err")' lacks '$1'"; }
# quiet DESCRIPTION: the last expect wrote nothing on stderr
quiet() { [ -s "$tmp/err" ] && bad "$1: stderr: $(head -3 "$tmp/err")" || ok; }
# matches PATTERN FILE DESCRIPTION: FILE (out or err of the last expect) has a line matching PATTERN
matches() { grep -q -- "$1" "$tmp/$2" && ok || bad "$3: $2 is '$(cat "$tmp/$2")', want /$1/"; }

# finish NAME: the closing line that ctest's log and CI read, and the exit code.
finish() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" = 0 ]
}
