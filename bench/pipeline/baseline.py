"""The baseline, as users lower and compile today: upstream's lowering of
the whole file in one mlir-opt process, then Triton-style ocloc builds per
module, serially; measured on every module or estimated from a sample."""
import os

from common import BenchError
from triton_retry import triton_auto
from upstream import upstream_lower


def baseline(compiler, path, work, texts, original_of=None, sample=None):
    """Upstream lowering of the whole file in one process (timed), then
    Triton-style ocloc builds per module, serially.

    LLVM 22's SPIR-V backend keeps state across the modules of one process
    (llvm/llvm-project#160613): some of the SPIR-V makes ocloc abort. Those
    modules are lowered again, each in its own process (`texts`: module ->
    a document holding only that module), and compiled again; that
    lowering and those builds count, the failed builds do not.

    With `sample` (module names), only those modules are compiled and each
    module of `original_of` (module -> the kernel it copies) counts at the
    mean measured time of its kernel's sampled copies."""
    lower_s, spirv = upstream_lower(path, os.path.join(work, "upstream.mlir"))
    spv_dir = os.path.join(work, "spv")
    os.makedirs(spv_dir, exist_ok=True)
    per_module = {}
    for name in (sample if sample is not None else list(spirv)):
        per_module[name] = build_module(compiler, name, spirv, spv_dir, work,
                                        texts)
    result = {"lower_s": lower_s, "modules": len(spirv),
              "per_module": per_module,
              "relowered": sorted(n for n, m in per_module.items()
                                  if m["relower_s"]),
              "failed": sorted(n for n, m in per_module.items()
                               if m["error"])}
    if result["failed"]:
        first = per_module[result["failed"][0]]
        raise BenchError(f"baseline: {len(result['failed'])} modules fail "
                         f"even when lowered alone, first "
                         f"{result['failed'][0]}: {first['error']}")
    weight = weights(result, per_module, original_of, sample)
    wsum = lambda key: sum(weight[n] * m[key] for n, m in per_module.items())
    result["relower_s"] = wsum("relower_s")
    result["ocloc_s"] = wsum("seconds") - result["relower_s"]
    result["failed_s"] = wsum("failed_s")
    result["builds"] = round(wsum("builds"))
    result["relowered_count"] = round(sum(weight[n] for n in
                                          result["relowered"]))
    result["total_s"] = (result["lower_s"] + result["relower_s"]
                         + result["ocloc_s"])
    return result


def build_module(compiler, name, spirv, spv_dir, work, texts):
    """One module's Triton-style builds from the whole file's SPIR-V; when
    they fail, from its SPIR-V lowered alone (llvm#160613)."""
    res = {"seconds": 0.0, "builds": 0, "error": None,
           "failed_s": 0.0, "relower_s": 0.0}
    if name in spirv:
        spv = os.path.join(spv_dir, name + ".spv")
        with open(spv, "wb") as f:
            f.write(spirv[name])
        res.update(triton_auto(compiler, spv, work))
    else:
        res["error"] = "no SPIR-V object from mlir-opt"
    if not res["error"]:
        return res
    # Lower this module alone and compile again.
    res["failed_s"], res["first_error"] = res["seconds"], res["error"]
    single = os.path.join(work, name + ".alone.mlir")
    with open(single, "w") as f:
        f.write(texts[name])
    res["relower_s"], alone = upstream_lower(
        single, os.path.join(work, name + ".alone.out.mlir"))
    spv = os.path.join(spv_dir, name + ".alone.spv")
    with open(spv, "wb") as f:
        f.write(alone[name])
    res.update(triton_auto(compiler, spv, work))
    res["seconds"] += res["relower_s"]
    return res


def weights(result, per_module, original_of, sample):
    """What each compiled module counts for (1 when every module was
    compiled); records the method in `result`."""
    if sample is None:
        result["method"] = "measured"
        weight = {n: 1.0 for n in per_module}
    else:
        # Every sampled module stands for its share of its kernel's copies.
        copies, sampled = {}, {}
        for n, k in original_of.items():
            copies[k] = copies.get(k, 0) + 1
        for n in sample:
            sampled[original_of[n]] = sampled.get(original_of[n], 0) + 1
        weight = {n: copies[original_of[n]] / sampled[original_of[n]]
                  for n in sample}
        result["method"] = (
            f"estimated: {len(sample)} of {len(original_of)} modules "
            "compiled (every kernel at least once), each counted for its "
            "share of its kernel's copies")
    return weight


def baseline_sample(renamed, size):
    """The modules of the renamed set the baseline compiles: every kernel's
    first copy, then the others in order up to `size` modules."""
    first = {}
    for name, _, orig, _ in renamed:
        first.setdefault(orig, name)
    sample = list(first.values())
    sample += [n for n, _, _, _ in renamed
               if n not in sample][:max(size - len(sample), 0)]
    return sample


def report_baseline(tag, b):
    print(f"baseline, {tag}: lowering {b['lower_s']:.2f} s, {b['builds']} "
          f"ocloc builds {b['ocloc_s']:.2f} s; "
          f"{b['relowered_count']} modules whose SPIR-V ocloc rejected "
          f"(llvm#160613) lowered again alone {b['relower_s']:.2f} s "
          f"(failed builds {b['failed_s']:.2f} s, not counted); "
          f"{b['method']}", flush=True)


def strip(b):
    return {k: v for k, v in b.items() if k != "per_module"} | {
        "decisions": {n: m.get("mode") for n, m in b["per_module"].items()}}
