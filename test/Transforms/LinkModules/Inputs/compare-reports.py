"""Checks that a linked run decided and measured every original module as
the unlinked run did: one report entry per original module and arch, with
the same result fields and the same per-kernel facts (kernels by their
original names). Prints one line per module (module@arch with several
archs) and fails on any difference.

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
        key = (m["module"], m.get("arch"))
        if key in result:
            sys.exit(f"{path}: two entries for {m['module']} on {key[1]}")
        result[key] = (entry, m)
    return result


unlinked, linked = facts(sys.argv[1]), facts(sys.argv[2])
if sorted(unlinked) != sorted(linked):
    sys.exit(f"modules differ: {sorted(unlinked)} != {sorted(linked)}")
several_archs = len({arch for _, arch in unlinked}) > 1
for key in sorted(unlinked, key=str):
    (a, _), (b, raw) = unlinked[key], linked[key]
    name = f"{key[0]}@{key[1]}" if several_archs else key[0]
    if a != b:
        sys.exit(f"{name}: unlinked {a} != linked {b}")
    how = [f"linked_into={raw['linked_into']}"] if "linked_into" in raw else []
    how += [f"{k}={raw[k]}" for k in ("split_into", "deduplicated_from")
            if k in raw]
    print(f"{name}: {b['grf_mode']} spill {b['spill_size']} "
          f"attempts {b['attempts']} same; {' '.join(how)}")
