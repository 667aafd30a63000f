"""Prints xpu-native-codegen JSON reports as one table row per kernel.

The compiler column is the report's "compiler" (its ocloc version). There is
a spill column per build the modules made: small and large always, and
"spill default" (IGC's own build, which auto starts from on Xe3 and Xe3P),
"spill N" (a register count such as 96 or 160) or "spill xlarge" (512
registers, cri) when some module built it. "threads" is the kernel's
threads per vector engine at its grf_count ("-" where unknown).

Usage: report_table.py REPORT.json [REPORT.json ...]
"""
import json
import sys


# Registers per thread of the named GRF modes; "default" sorts first.
MODE_REGISTERS = {"default": 0, "small": 128, "large": 256, "xlarge": 512}


def mode_order(mode):
    """Columns in register order: default, 32, ..., small, 160, ..."""
    if mode in MODE_REGISTERS:
        return MODE_REGISTERS[mode]
    return int(mode) if mode.isdigit() else 1 << 20


def attempt_spill(module, mode):
    for attempt in module.get("attempts", []):
        if attempt["grf_mode"] == mode:
            return str(attempt["spill_size"])
    return "-"


def compiler_name(module):
    # "ocloc 26.27.039122 (API 1.0; 4 libraries ...)": the version names it.
    return module.get("compiler", "?").split(" (")[0]


def rows(modules, spill_modes):
    for module in modules:
        if "error" in module:
            yield [module["module"], "", module["arch"], compiler_name(module),
                   "error: " + module["error"][:60]]
            continue
        compile_ms = sum(a["compile_ms"] for a in module["attempts"])
        for kernel in module["kernels"]:
            yield ([
                module["module"],
                kernel["name"],
                module["arch"],
                compiler_name(module),
                module["grf_mode"],
                str(module["n_regs"]),
            ] + [attempt_spill(module, mode) for mode in spill_modes] + [
                str(kernel["grf_count"]),
                str(kernel.get("threads_per_eu", "-")),
                str(kernel["simd"]),
                f"{compile_ms:.0f}",
                module["cache"],
            ])


def main():
    modules = [module for path in sys.argv[1:]
               for module in json.load(open(path, encoding="utf-8"))["modules"]]
    built = {attempt["grf_mode"] for module in modules
             for attempt in module.get("attempts", [])}
    spill_modes = sorted(built | {"small", "large"}, key=mode_order)
    header = (["module", "kernel", "arch", "compiler", "grf_mode", "n_regs"]
              + [f"spill {mode}" for mode in spill_modes]
              + ["grf_count", "threads", "simd", "compile ms", "cache"])
    table = [header] + list(rows(modules, spill_modes))
    widths = [max(len(row[i]) if i < len(row) else 0 for row in table)
              for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


if __name__ == "__main__":
    main()
