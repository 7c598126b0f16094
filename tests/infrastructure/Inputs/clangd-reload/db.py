#!/usr/bin/env python3
"""Writes DIR/compile_commands.json for SRC/kernel.cu, as CMake writes it
for nvcc: `db.py DIR SRC NVCC [FLAG...]`; the flag `BROKEN` writes kernel.cu's entry
with "arguments" that are not a list instead (and a good entry for
other.cu)."""
import json
import os
import sys

out, src, nvcc, *flags = sys.argv[1:]
src = os.path.abspath(src)
entries = []
command = " ".join([nvcc] + [f for f in flags if f != "BROKEN"] +
                   ["-arch=sm_90a", "-x", "cu", "-c", "kernel.cu",
                    "-o", "kernel.o"])
if "BROKEN" in flags:
    entries.append({"directory": src, "file": "other.cu",
                    "command": command.replace("kernel", "other")})
    entries.append({"directory": src, "file": "kernel.cu",
                    "arguments": {"not": "a list"}})
else:
    entries.append({"directory": src, "file": "kernel.cu", "command": command})
with open(os.path.join(out, "compile_commands.json.tmp"), "w") as f:
    json.dump(entries, f, indent=1)
os.replace(os.path.join(out, "compile_commands.json.tmp"),
           os.path.join(out, "compile_commands.json"))
