#!/usr/bin/env python3
"""Checks that each pass's work ("xpu-pass-work: <pass> <ops>" lines of
xpu-opt --xpu-count-work) grows at most linearly between two program sizes.

Usage: check-linear.py SMALL_SIZE SMALL_FILE LARGE_SIZE LARGE_FILE PASS...
Every PASS named must have done work at the small size (a pass that visits
nothing proves nothing). Work at the large size may be at most
(LARGE/SMALL) * 1.1 times the small size's, plus 64 operations of fixed
cost. Prints one line per pass; exits 1 naming the passes that grew faster.
"""
import sys


def read(path):
    work = {}
    for line in open(path):
        if line.startswith("xpu-pass-work: "):
            _, name, ops = line.split()
            work[name] = work.get(name, 0) + int(ops)
    return work


small_n, small, large_n, large = (int(sys.argv[1]), read(sys.argv[2]),
                                  int(sys.argv[3]), read(sys.argv[4]))
factor = large_n / small_n
bad = []
for name in sys.argv[5:]:
    a, b = small.get(name, 0), large.get(name, 0)
    limit = a * factor * 1.1 + 64
    verdict = "ok" if a > 0 and b <= limit else "FAILED"
    print(f"{name}: {a} ops at {small_n}, {b} at {large_n} "
          f"(limit {limit:.0f}): {verdict}")
    if verdict != "ok":
        bad.append(name)
if bad:
    print("grew faster than the program or did no work: " + ", ".join(bad))
    sys.exit(1)
print("linear")
