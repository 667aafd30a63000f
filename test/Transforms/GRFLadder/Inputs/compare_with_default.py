"""Compares `auto` with IGC's default build, module by module, from two
xpu-native-codegen reports (auto, default) of one device: spill, lanes in
flight per engine (the report's threads_per_eu at the binary's register
count x SIMD width) and the number of builds auto ran. Prints one line per
module and "worse" where auto spills more than the default, or as much with
fewer lanes.

Usage: compare_with_default.py ARCH AUTO.json DEFAULT.json  (ARCH names the
device in the test; the reports carry its threads)
"""
import json
import sys

def summary(module):
    """(registers, lanes, spill) of a module's kept build."""
    kernels = module["kernels"]
    lanes = min(k["threads_per_eu"] * k["simd"] for k in kernels)
    registers = max(k["grf_count"] for k in kernels)
    return registers, lanes, module["spill_size"]


def main():
    auto_path, default_path = sys.argv[2:4]
    with open(auto_path) as f:
        auto = {m["module"]: m for m in json.load(f)["modules"]}
    with open(default_path) as f:
        default = {m["module"]: m for m in json.load(f)["modules"]}
    for name in sorted(auto):
        a_regs, a_lanes, a_spill = summary(auto[name])
        d_regs, d_lanes, d_spill = summary(default[name])
        worse = a_spill > d_spill or (a_spill == d_spill and a_lanes < d_lanes)
        print(f"{name}: auto {a_regs} registers, {a_lanes} lanes, "
              f"{a_spill} B spilled, n_regs {auto[name]['n_regs']}; "
              f"default {d_regs} registers, {d_lanes} lanes, {d_spill} B; "
              f"{len(auto[name]['attempts'])} builds; "
              + ("worse" if worse else "not worse"))


if __name__ == "__main__":
    main()
