"""Prints the fenced code block of a Markdown file that follows a marker.

Usage: extract-block.py [--as-checks] FILE MARKER [LANG]
The block is the first ```LANG fence after the first line containing MARKER,
so documentation examples can be compared with real tool output. With
--as-checks every non-empty line becomes a FileCheck `CHECK:` line, so an
excerpt must appear, in order, in the real output.
"""
import sys

args = sys.argv[1:]
as_checks = "--as-checks" in args
args = [a for a in args if a != "--as-checks"]
path, marker = args[0], args[1]
lang = args[2] if len(args) > 2 else ""
lines = open(path, encoding="utf-8").read().splitlines()
start = next(i for i, line in enumerate(lines) if marker in line)
fence = next(i for i in range(start, len(lines)) if lines[i].strip() == "```" + lang)
end = next(i for i in range(fence + 1, len(lines)) if lines[i].strip() == "```")
block = lines[fence + 1 : end]
if as_checks:
    block = ["CHECK: " + line.strip() for line in block if line.strip()]
print("\n".join(block))
