"""Prints, for a JSON report (argv[1]), one line per kernel of every module,
sorted by module name: its SIMD width and required sub-group size; then how
many kernels require none."""
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
rows = []
for module in report["modules"]:
    if "error" in module:
        rows.append((module["module"], "-", "error"))
        continue
    for kernel in module["kernels"]:
        rows.append((module["module"], kernel["name"],
                     f"simd={kernel['simd']} "
                     f"subgroup_size={kernel['subgroup_size']}"))
for row in sorted(rows):
    print(" ".join(row))
missing = sum(1 for row in rows if "subgroup_size=0" in row[2])
print(f"kernels={len(rows)} without a sub-group size={missing}")
