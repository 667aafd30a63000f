"""Compares two reports kernel by kernel (module, name): GRF mode, count,
SIMD and spill must agree. Prints how many agree, or each difference and
exits 1."""
import json
import sys


def facts(path):
    out = {}
    for entry in json.load(open(path))["modules"]:
        for kernel in entry.get("kernels", []):
            out[(entry["module"], kernel["name"])] = (
                entry["grf_mode"], kernel["grf_count"], kernel["simd"],
                kernel["spill_size"])
    return out


on, off = facts(sys.argv[1]), facts(sys.argv[2])
differ = sorted(k for k in on.keys() | off.keys() if on.get(k) != off.get(k))
for key in differ:
    print("differs:", key, on.get(key), off.get(key))
if differ or not on:
    sys.exit(1)
print(f"{len(on)} kernels, the same facts with link on and off")
