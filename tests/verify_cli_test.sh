#!/usr/bin/env bash
# clrdx verify's whole run on auto with i32 (`cli.verify`, full tier): every operator, its maps,
# the composites and every operator's segmented cases, each set's count. The quick tier's
# cli_test.sh runs two operators' maps and segments, and the composites on u8.
# Usage: verify_cli_test.sh path/to/clrdx
set -u
clrdx=$1
. "$(dirname "$0")/cli_lib.sh"

expect 0 "verify composites" -- "$clrdx" verify --device "$dev" --strategy auto --quick --types i32 --json
python3 -c '
import json,sys
rows=[json.loads(l) for l in open(sys.argv[1])]
c=[r for r in rows if r["strategy"] == "auto" and r["set"] == "composites"]
# 14 composites at 3 sizes
assert len(c) == 1 and c[0]["passed"] == 42 and c[0]["failed"] == 0, rows
# the built-in operators as maps of x: 9 operators on i32 (no argmin/argmax family) at 3 sizes
m=[r for r in rows if r["strategy"] == "auto" and r["set"] == "maps"]
assert len(m) == 1 and m[0]["passed"] == 27 and m[0]["failed"] == 0, rows
# segmented: 13 operators on i32 x (8 offset layouts + 46 axes of the 20 shapes + axes 0,-1 of
# the 7 shapes of 3 or 4 dimensions, the first reversed)
s=[r for r in rows if r["set"] == "segmented"]
assert len(s) == 1 and s[0]["passed"] == 793 and s[0]["failed"] == 0, s' "$tmp/out" && ok || bad "verify composites row: $(cat "$tmp/out")"

finish cli.verify
