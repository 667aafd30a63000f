"""Results do not depend on how they were obtained: the runs' IR and every
kernel's result fields compared against the cold run's."""
import json
import os
import sys

from common import IGC_KERNELS

# Report fields that are results. Everything else (cache, compile_ms,
# reused, deduplicated_from, linked_into, the module's own name, ...) says
# how a result was obtained and may differ between runs.
MODULE_RESULT_FIELDS = ["arch", "backend", "grf_mode", "n_regs", "spill_size",
                        "build_flags", "subgroup_size", "error"]
KERNEL_RESULT_FIELDS = ["grf_count", "simd", "spill_size", "private_size",
                        "n_spills"]


def kernel_facts(report_path, original_of=None):
    """{original module: facts} where facts are the result fields of the
    module and of its kernels (kernels by order: every module has one)."""
    with open(report_path) as f:
        modules = json.load(f)["modules"]
    facts = {}
    for m in modules:
        name = original_of[m["module"]] if original_of else m["module"]
        entry = {k: m.get(k) for k in MODULE_RESULT_FIELDS}
        entry["kernels"] = [
            {k: kern.get(k) for k in KERNEL_RESULT_FIELDS}
            for kern in m["kernels"] if kern["name"] not in IGC_KERNELS]
        facts.setdefault(name, []).append(entry)
    return facts


def compare_facts(reference, other, tag):
    """Differences between two runs' per-module results, as messages."""
    diffs = []
    for name, ref in reference.items():
        for entry in other.get(name, [None]):
            if entry != ref[0]:
                diffs.append(f"{tag}: {name}: {entry} != cold {ref[0]}")
    for name in other:
        if name not in reference:
            diffs.append(f"{tag}: {name} is not in the cold run")
    return diffs


def check(out):
    """The "Done means" check over a finished run's directory: the cold and
    warm IR byte for byte; every kernel's result fields in the warm, renamed
    (mapped back to the kernel each module copies) and linked runs against
    the cold run. Returns the differences."""
    with open(os.path.join(out, "modules.json")) as f:
        meta = json.load(f)
    report = lambda tag: os.path.join(out, f"{tag}.report.json")
    diffs = []
    with open(os.path.join(out, "cold.out.mlir"), "rb") as f:
        cold_ir = f.read()
    with open(os.path.join(out, "warm.out.mlir"), "rb") as f:
        if f.read() != cold_ir:
            diffs.append("cold and warm IR differ (cold.out.mlir, "
                         "warm.out.mlir)")
    reference = kernel_facts(report("cold"))
    diffs += compare_facts(reference, kernel_facts(report("warm")), "warm")
    originals = set(meta["original_of"].values())
    diffs += compare_facts(
        {k: v for k, v in reference.items() if k in originals},
        kernel_facts(report("renamed"), meta["original_of"]), "renamed")
    if "link" in meta["runs"]:
        diffs += compare_facts(reference, kernel_facts(report("link")),
                               "link")
    return diffs


def print_differences(diffs):
    print(f"\nFAILED: {len(diffs)} results differ between runs (the cold "
          "run is the reference):", file=sys.stderr)
    for d in diffs[:20]:
        print("  " + d, file=sys.stderr)


def decisions(report_path):
    with open(report_path) as f:
        modules = json.load(f)["modules"]
    return {m["module"]: (m["grf_mode"], m["spill_size"]) for m in modules}
