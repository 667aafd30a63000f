#!/usr/bin/env python3
"""Checks that two xpu-native-codegen reports state the same facts.

Usage: compare-reports.py OCLOC.json LEVEL_ZERO.json

Everything that describes the kernels and the GRF decision must be equal:
grf_mode, n_regs, spill_size, every attempt's mode and spill, every kernel's
grf_count/simd/spill_size/private_size/n_spills. What legitimately differs is
dropped first: the backend and why it was chosen, the compiler identity,
timings, cache status, and build flags (the same flags in OpenCL vs Level
Zero spelling; the spelling is checked by FileCheck in the tests).
"""
import json
import sys

DIFFERS = {"backend", "backend_reason", "compiler", "compile_ms", "cache",
           "build_flags"}


def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in DIFFERS}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def main():
    ocloc, level_zero = (json.load(open(path)) for path in sys.argv[1:3])
    a, b = strip(ocloc), strip(level_zero)
    if a != b:
        print("reports differ:")
        print(json.dumps(a, indent=1, sort_keys=True))
        print(json.dumps(b, indent=1, sort_keys=True))
        return 1
    modules = [m["module"] for m in ocloc["modules"]]
    print("same facts for " + ", ".join(modules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
