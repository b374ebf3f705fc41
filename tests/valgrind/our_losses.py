#!/usr/bin/env python3
"""Reads valgrind memcheck's XML and fails on what librdx's own code lost or misused.

A record counts as ours when a frame of the program under test (clrdx: librdx is linked into it)
appears in its stack and no frame of LLVM does. PoCL compiles kernels with LLVM, whose pass
managers it never frees (thousands of "definitely/indirectly lost" records whose stacks run from
clBuildProgram or the first launch into libLLVM); those are PoCL's, as are records with no frame
of ours at all (PoCL's and the ICD loader's start-up). Everything else, a buffer, kernel or
program we forgot to release (allocated inside libpocl, called from our frame), memory we
allocated ourselves, any invalid read or write or use of an uninitialised value in our code,
fails the check. Usage: our_losses.py VALGRIND.xml PROGRAM_PATH"""
import os
import sys
import xml.etree.ElementTree as ET

xml_path, program = sys.argv[1], os.path.realpath(sys.argv[2])
root = ET.parse(xml_path).getroot()
ours, theirs = [], 0
for err in root.iter("error"):
    kind = err.findtext("kind")
    what = err.findtext("xwhat/text") or err.findtext("what") or ""
    frames = err.find("stack").findall("frame")
    objs = [os.path.realpath(f.findtext("obj") or "") for f in frames]
    mine = any(o == program for o in objs)
    llvm = any("libLLVM" in o for o in objs)
    if mine and not llvm:
        lines = ["%s: %s" % (kind, what)]
        for f in frames[:16]:
            where = f.findtext("file")
            lines.append("    %s %s" % (f.findtext("fn") or "?",
                                       "(%s:%s)" % (where, f.findtext("line")) if where else
                                       "[%s]" % os.path.basename(f.findtext("obj") or "")))
        ours.append("\n".join(lines))
    else:
        theirs += 1
print("valgrind: %d records in PoCL, LLVM or the ICD loader (not librdx's); %d in librdx's code"
      % (theirs, len(ours)))
for o in ours:
    print(o)
sys.exit(1 if ours else 0)
