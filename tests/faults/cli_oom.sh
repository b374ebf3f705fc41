#!/usr/bin/env bash
# clrdx on a device out of memory (oom_shim preloaded): exit 1, one line on stderr that names the
# failed call and says what it means, nothing on stdout. Usage: cli_oom.sh clrdx oom_shim.so
set -u
clrdx=$1 shim=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LD_PRELOAD=$shim RDX_FAKE_OOM_ABOVE=65536 "$clrdx" reduce --device cpu --type f32 --op sum \
  --generate ones --count 4Mi >"$tmp/out" 2>"$tmp/err"
rc=$?
fail=0
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, want 1"; fail=1; }
[ "$(grep -c . "$tmp/err")" = 1 ] || { echo "FAIL: stderr is not one line:"; fail=1; }
grep -q "clCreateBuffer.*CL_MEM_OBJECT_ALLOCATION_FAILURE.*out of memory" "$tmp/err" ||
  { echo "FAIL: stderr does not name the call and the error"; fail=1; }
[ -s "$tmp/out" ] && { echo "FAIL: wrote to stdout"; fail=1; }
cat "$tmp/err"
# Without the limit the same command works.
out=$(LD_PRELOAD=$shim "$clrdx" reduce --device cpu --type f32 --op sum --generate ones --count 4Mi)
[ "$out" = 4194304 ] || { echo "FAIL: without the limit: '$out'"; fail=1; }
exit $fail
