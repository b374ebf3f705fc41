#!/usr/bin/env bash
# The on-disk program cache through clrdx: `cache --clear` removes only the cache's own entries;
# a damaged entry, or a FIFO in an entry's place, is rebuilt and rewritten; `clrdx cache` says
# why the cache is off; RDX_CACHE_DIR naming a file is an error. Every cache folder is made here
# under a temporary folder, and HOME points there too, so nothing outside it is touched.
# Usage: cache_test.sh path/to/clrdx
set -u
clrdx=$1
. "$(dirname "$0")/cli_lib.sh"
export HOME="$tmp/home"
unset XDG_CACHE_HOME
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-$tmp/pocl-cache}

# reduce_in DIR: a reduction with the program cache in DIR (its result is 499500). The strategy
# by name: auto reduces so small a host input on a CPU device without a kernel (host_items).
reduce_in() {
  env RDX_CACHE_DIR="$1" "$clrdx" reduce --device "$dev" --type i32 --op sum --generate iota \
    --count 1000 --strategy fast_blocked
}
# entries DIR: the cache entries under DIR (any layout; not the user file named like one)
entries() {
  find "$1" -regextype posix-extended -regex '.*/[0-9a-f]{32}\.bin' ! -name "$old_layout" | sort
}
old_layout=0123456789abcdef0123456789abcdef.bin

# --clear in a folder that holds user files: only the cache's own entries go.
d="$tmp/shared"
mkdir -p "$d/programs-v2"
for f in firmware.bin notes.tmp keep.txt "$old_layout" programs-v2/mine.txt; do
  echo "user data $f" >"$d/$f"
done
expect 0 "reduce fills the cache" -- reduce_in "$d"
same 499500 "reduce with the cache in a shared folder"
[ -n "$(entries "$d")" ] && ok || bad "reduce stored no entry under $d"
expect 0 "cache shows the entries" -- env RDX_CACHE_DIR="$d" "$clrdx" cache
matches "programs-v2 (RDX_CACHE_DIR=$d): entries: [1-9]" out "cache"
expect 0 "cache --clear" -- env RDX_CACHE_DIR="$d" "$clrdx" cache --clear
matches "removed [1-9][0-9]* entries" out "cache --clear"
for f in firmware.bin notes.tmp keep.txt "$old_layout" programs-v2/mine.txt; do
  [ "$(cat "$d/$f" 2>/dev/null)" = "user data $f" ] && ok ||
    bad "cache --clear removed or changed $f"
done
[ -z "$(entries "$d")" ] && ok || bad "cache --clear left entries: $(entries "$d")"
expect 0 "cache --clear again" -- env RDX_CACHE_DIR="$d" "$clrdx" cache --clear
matches "removed 0 entries" out "a second cache --clear"
# Once the folder holds only what the cache made, --clear removes that folder and its marker too.
rm "$d/programs-v2/mine.txt"
expect 0 "reduce refills the cache" -- reduce_in "$d"
expect 0 "cache --clear empties" -- env RDX_CACHE_DIR="$d" "$clrdx" cache --clear
[ ! -e "$d/programs-v2" ] && ok ||
  bad "cache --clear left $d/programs-v2 (holding: $(ls -A "$d/programs-v2"))"
[ "$(ls -A "$d" | sort | tr '\n' ' ')" = "$old_layout firmware.bin keep.txt notes.tmp " ] && ok ||
  bad "after cache --clear the folder holds: $(ls -A "$d")"

# check_entry FILE: the entry's header lengths match the file and its FNV-1a 64 checksum of key
# and binary matches (magic, then little-endian u64 key length, binary length, checksum); prints
# what does not match.
check_entry() {
  python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
if data[:8] != b"RDXBIN2\n":
    sys.exit("no RDXBIN2 magic")
klen, blen, checksum = struct.unpack_from("<3Q", data, 8)
if 32 + klen + blen != len(data):
    sys.exit("lengths do not match the file's size")
h = 0xcbf29ce484222325
for b in data[32:]:
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
if h != checksum:
    sys.exit("checksum does not match")
PY
}

# A damaged entry (its tail zeroed, the lengths intact) is rebuilt and rewritten, silently.
d="$tmp/damaged"
expect 0 "reduce stores an entry" -- reduce_in "$d"
list=$(entries "$d")
[ -n "$list" ] && ok || bad "no entry stored under $d"
for f in $list; do
  python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); n = len(b)
b[n // 2:] = bytes(n - n // 2); open(p, "wb").write(b)' "$f"
done
expect 0 "reduce after the entry is damaged" -- reduce_in "$d"
same 499500 "reduce after the entry is damaged"
quiet "reduce after the entry is damaged"
for f in $list; do
  why=$(check_entry "$f" 2>&1) && ok || bad "$f was not rewritten as a valid entry: $why"
done
expect 0 "reduce from the rewritten entry" -- reduce_in "$d"
same 499500 "reduce from the rewritten entry"

# A FIFO at an entry's path is never opened for a blocking read: the program is rebuilt.
d="$tmp/fifo"
expect 0 "reduce stores an entry" -- reduce_in "$d"
list=$(entries "$d")
[ -n "$list" ] && ok || bad "no entry stored under $d"
for f in $list; do rm "$f" && mkfifo "$f"; done
expect 0 "reduce with a FIFO in the entry's place" -- timeout 60 env RDX_CACHE_DIR="$d" \
  "$clrdx" reduce --device "$dev" --type i32 --op sum --generate iota --count 1000 \
  --strategy fast_blocked
same 499500 "reduce with a FIFO in the entry's place"
quiet "reduce with a FIFO in the entry's place"
for f in $list; do
  [ -f "$f" ] && [ ! -p "$f" ] && ok || bad "$f is still not a regular file"
done

# Off, and why.
expect 0 "cache with nowhere to put it" -- env -u RDX_CACHE_DIR HOME= XDG_CACHE_HOME= "$clrdx" cache
matches "off (no RDX_CACHE_DIR, XDG_CACHE_HOME or HOME" out "cache with nowhere to put it"
expect 0 "reduce with nowhere to put the cache" -- env -u RDX_CACHE_DIR HOME= XDG_CACHE_HOME= \
  "$clrdx" reduce --device "$dev" --type i32 --op sum --generate iota --count 1000 \
  --strategy fast_blocked
same 499500 "reduce with the cache off"
expect 0 "cache off" -- env RDX_CACHE_DIR=off "$clrdx" cache
matches "off (RDX_CACHE_DIR=off)" out "RDX_CACHE_DIR=off"

# RDX_CACHE_DIR naming a file (or a path through one) is an error, and the file is left alone.
file="$tmp/plain-file"
echo "not a folder" >"$file"
for target in "$file" "$file/sub"; do
  expect 2 "reduce with RDX_CACHE_DIR=$target" -- reduce_in "$target"
  matches "^clrdx: RDX_CACHE_DIR=$target is not a directory" err "reduce with RDX_CACHE_DIR=$target"
  expect 2 "cache with RDX_CACHE_DIR=$target" -- env RDX_CACHE_DIR="$target" "$clrdx" cache
  matches "^clrdx: RDX_CACHE_DIR=$target is not a directory" err "cache with RDX_CACHE_DIR=$target"
  expect 2 "cache --clear with RDX_CACHE_DIR=$target" -- \
    env RDX_CACHE_DIR="$target" "$clrdx" cache --clear
done
[ "$(cat "$file")" = "not a folder" ] && ok || bad "$file was changed"

# A folder from XDG_CACHE_HOME that cannot hold the cache: reduce still works, `cache` says why.
mkdir -p "$tmp/xdg"
echo "not a folder" >"$tmp/xdg/rdx"
expect 0 "reduce with XDG_CACHE_HOME/rdx a file" -- env -u RDX_CACHE_DIR XDG_CACHE_HOME="$tmp/xdg" \
  "$clrdx" reduce --device "$dev" --type i32 --op sum --generate iota --count 1000 \
  --strategy fast_blocked
same 499500 "reduce with XDG_CACHE_HOME/rdx a file"
quiet "reduce with XDG_CACHE_HOME/rdx a file"
expect 0 "cache with XDG_CACHE_HOME/rdx a file" -- env -u RDX_CACHE_DIR XDG_CACHE_HOME="$tmp/xdg" \
  "$clrdx" cache
matches "not usable: $tmp/xdg/rdx is not a directory" out "cache with XDG_CACHE_HOME/rdx a file"

# A folder without write permission (root writes anywhere, so only as another user).
if [ "$(id -u)" != 0 ]; then
  mkdir -p "$tmp/readonly"
  chmod 555 "$tmp/readonly"
  expect 0 "reduce with an unwritable cache folder" -- reduce_in "$tmp/readonly"
  same 499500 "reduce with an unwritable cache folder"
  quiet "reduce with an unwritable cache folder"
  expect 0 "cache with an unwritable folder" -- env RDX_CACHE_DIR="$tmp/readonly" "$clrdx" cache
  matches "not usable: $tmp/readonly cannot be written" out "cache with an unwritable folder"
  chmod 755 "$tmp/readonly"
else
  echo "note: running as root, the unwritable-folder case is not checked"
fi

finish cli.cache
