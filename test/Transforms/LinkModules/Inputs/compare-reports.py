"""Checks that a linked run decided and measured every original module as
the unlinked run did: one report entry per original module, with the same
result fields and the same per-kernel facts (kernels by their original
names). Prints one line per module and fails on any difference.

Usage: compare-reports.py UNLINKED.json LINKED.json
"""
import json
import sys

MODULE_FIELDS = ["arch", "grf_mode", "n_regs", "spill_size", "build_flags",
                 "subgroup_size", "decision_source", "error"]
KERNEL_FIELDS = ["name", "grf_count", "simd", "subgroup_size", "spill_size",
                 "private_size", "scratch_size", "n_spills"]


def facts(path):
    with open(path) as f:
        modules = json.load(f)["modules"]
    result = {}
    for m in modules:
        entry = {k: m.get(k) for k in MODULE_FIELDS}
        entry["attempts"] = [(a["grf_mode"], a["spill_size"])
                             for a in m.get("attempts", [])]
        entry["kernels"] = sorted(
            tuple(k.get(f) for f in KERNEL_FIELDS) for k in m["kernels"])
        if m["module"] in result:
            sys.exit(f"{path}: two entries for {m['module']}")
        result[m["module"]] = (entry, m)
    return result


unlinked, linked = facts(sys.argv[1]), facts(sys.argv[2])
if sorted(unlinked) != sorted(linked):
    sys.exit(f"modules differ: {sorted(unlinked)} != {sorted(linked)}")
for name in sorted(unlinked):
    (a, _), (b, raw) = unlinked[name], linked[name]
    if a != b:
        sys.exit(f"{name}: unlinked {a} != linked {b}")
    how = [f"linked_into={raw['linked_into']}"] if "linked_into" in raw else []
    how += [f"{k}={raw[k]}" for k in ("split_into", "deduplicated_from")
            if k in raw]
    print(f"{name}: {b['grf_mode']} spill {b['spill_size']} "
          f"attempts {b['attempts']} same; {' '.join(how)}")
