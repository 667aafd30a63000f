"""Prints xpu-native-codegen JSON reports as one table row per kernel.

Usage: report_table.py REPORT.json [REPORT.json ...]
"""
import json
import sys


def attempt_spill(module, mode):
    for attempt in module.get("attempts", []):
        if attempt["grf_mode"] == mode:
            return str(attempt["spill_size"])
    return "-"


def rows(path):
    for module in json.load(open(path, encoding="utf-8"))["modules"]:
        if "error" in module:
            yield [module["module"], "", module["arch"], "error: " + module["error"][:60]]
            continue
        compile_ms = sum(a["compile_ms"] for a in module["attempts"])
        for kernel in module["kernels"]:
            yield [
                module["module"],
                kernel["name"],
                module["arch"],
                module["grf_mode"],
                str(module["n_regs"]),
                attempt_spill(module, "small"),
                attempt_spill(module, "large"),
                str(kernel["grf_count"]),
                str(kernel["simd"]),
                f"{compile_ms:.0f}",
                module["cache"],
            ]


def main():
    header = ["module", "kernel", "arch", "grf_mode", "n_regs", "spill small",
              "spill large", "grf_count", "simd", "compile ms", "cache"]
    table = [header] + [row for path in sys.argv[1:] for row in rows(path)]
    widths = [max(len(row[i]) if i < len(row) else 0 for row in table)
              for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


if __name__ == "__main__":
    main()
