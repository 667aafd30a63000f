"""Compares a table the README shows with the table a command printed.

Usage: compare-table.py EXPECTED ACTUAL [--excerpt]
Both are tables of columns separated by two or more spaces (as
examples/report_table.py prints them). The "compile ms" and "cache" columns
are left out (they vary from run to run); every other cell must match. The
header must be the same; the rows must be the same, or with --excerpt a
subsequence of the actual rows (in order).
"""
import re
import sys

VARYING = ("compile ms", "cache")


def table(path):
    lines = [line for line in open(path, encoding="utf-8").read().splitlines()
             if line.strip() and not line.startswith("Native binaries")]
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines]
    header = rows[0]
    keep = [i for i, name in enumerate(header) if name not in VARYING]
    return [[row[i] if i < len(row) else "" for i in keep] for row in rows]


def main():
    expected, actual = table(sys.argv[1]), table(sys.argv[2])
    excerpt = "--excerpt" in sys.argv[3:]
    if expected[0] != actual[0]:
        sys.exit(f"header differs:\n  README: {expected[0]}\n  actual: "
                 f"{actual[0]}")
    rows = iter(actual[1:])
    for row in expected[1:]:
        if excerpt:
            if not any(row == other for other in rows):
                sys.exit(f"README row not in the output (in order): {row}")
        elif row != next(rows, None):
            sys.exit(f"README row differs from the output: {row}")
    if not excerpt and next(rows, None) is not None:
        sys.exit("the output has rows the README does not show")


if __name__ == "__main__":
    main()
