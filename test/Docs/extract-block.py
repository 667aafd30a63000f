"""Prints the fenced code block of a Markdown file that follows a marker.

Usage: extract-block.py FILE MARKER [LANG]
The block is the first ```LANG fence after the first line containing MARKER,
so documentation examples can be compared with real tool output.
"""
import sys

path, marker = sys.argv[1], sys.argv[2]
lang = sys.argv[3] if len(sys.argv) > 3 else ""
lines = open(path, encoding="utf-8").read().splitlines()
start = next(i for i, line in enumerate(lines) if marker in line)
fence = next(i for i in range(start, len(lines)) if lines[i].strip() == "```" + lang)
end = next(i for i in range(fence + 1, len(lines)) if lines[i].strip() == "```")
print("\n".join(lines[fence + 1 : end]))
