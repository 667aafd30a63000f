"""The benchmark's table: the runs against the baseline, IGC compiles per
kernel, the features found, the processes started, the profile and whether
the results agree."""
from common import TARGETS
from triton_retry import TRITON_SLOTS


def baseline_rows(b, what):
    estimated = "" if b["method"] == "measured" else ", estimated"
    rows = [(f"baseline, {what}: upstream lowering, one mlir-opt",
             b["lower_s"], "", "")]
    if b["relowered_count"]:
        rows.append((f"baseline: {b['relowered_count']} modules lowered again"
                     f" alone (ocloc aborted on their SPIR-V, llvm#160613)"
                     f"{estimated}", b["relower_s"], "", ""))
    rows += [(f"baseline: {b['builds']} ocloc processes (Triton retry), "
              f"serial{estimated}", b["ocloc_s"], "", ""),
             (f"**baseline, {what}**", b["total_s"], "1.0x", "")]
    return rows


def met(value, target, at_most=False):
    ok = value <= target if at_most else value >= target
    return "met" if ok else "**missed**"


def print_table(s, base, base_renamed, runs, startup_s):
    print_runs(s, base, base_renamed, runs)
    print_strict(base, base_renamed, runs)
    print_compiles(s)
    print_baseline_differs(s)
    print_processes(s)
    print_profile(s)
    print_results(s, runs)


def print_runs(s, base, base_renamed, runs):
    """The header and each run's wall time against the baseline's."""
    r = s["ratios"]
    mix_n, ren_n = s["inputs"]["mix"], s["inputs"]["renamed"]
    rows = baseline_rows(base, f"{mix_n} modules") + [
        ("cold, jobs=2 (default options: link=true)", runs["cold"]["wall_s"],
         f"{r['cold']:.1f}x",
         f">= {TARGETS['cold']:.0f}x: {met(r['cold'], TARGETS['cold'])}"),
        ("warm (same cache)", runs["warm"]["wall_s"], f"{r['warm']:.1f}x",
         f">= {TARGETS['warm']:.0f}x: {met(r['warm'], TARGETS['warm'])}"),
        ("auto with predict=true link=false, cold", runs["predict"]["wall_s"],
         f"{r['predict']:.1f}x", ""),
    ]
    if "link" in runs:
        rows.append(("link=false, cold", runs["link"]["wall_s"],
                     f"{r['link']:.1f}x", ""))
    rows += baseline_rows(
        base_renamed, f"{ren_n} modules ({s['inputs']['unique']} unique)")
    rows.append((f"{ren_n} renamed modules, cold, dedupe=true",
                 runs["renamed"]["wall_s"], f"{r['renamed']:.1f}x",
                 f">= {TARGETS['renamed']:.0f}x: "
                 f"{met(r['renamed'], TARGETS['renamed'])}"))
    c = s["compiler"]
    print()
    print(f"compiler: {c['name']}, device {s['arch']}; reports' compiler: "
          + "; ".join(c["report"]))
    print(f"started {s['date']} at {s['commit']} (xpu-opt built "
          f"{s['xpu_opt_built']}); load average "
          f"{s['machine']['load_before'][0]:.2f}, {s['machine']['cores']} "
          "cores")
    print()
    print("| run | wall s | vs baseline | target |")
    print("|---|---:|---:|---|")
    for label, wall, ratio, target in rows:
        print(f"| {label} | {wall:.3f} | {ratio} | {target} |")


def strict_s(b):
    """The baseline without what llvm#160613 adds: upstream's lowering once
    and only the ocloc builds that succeed (no modules lowered again, no
    failed builds)."""
    return b["lower_s"] + b["ocloc_s"]


def print_strict(base, base_renamed, runs):
    """The runs against the strict baseline, and cold against its limit:
    the larger of the IGC build time over the two workers and the longest
    build (builds' wall times, as the reports give them)."""
    strict, strict_renamed = strict_s(base), strict_s(base_renamed)
    cold = runs["cold"]
    print()
    print("| against the strict baseline (lowering once, only the ocloc "
          "builds that succeed) | strict s | cold | warm | renamed |")
    print("|---|---:|---:|---:|---:|")
    print(f"| ratio | {strict:.3f} / {strict_renamed:.3f} | "
          f"{strict / cold['wall_s']:.1f}x | "
          f"{strict / runs['warm']['wall_s']:.1f}x | "
          f"{strict_renamed / runs['renamed']['wall_s']:.1f}x |")
    if "compile_ms_max" not in cold:
        return
    limit = max(cold["compile_ms_sum"] / 2, cold["compile_ms_max"]) / 1000
    print(f"cold's limit: max(IGC builds {cold['compile_ms_sum'] / 1000:.3f} s"
          f" / 2 workers, longest build {cold['compile_ms_max'] / 1000:.3f} s)"
          f" = {limit:.3f} s; cold {cold['wall_s']:.3f} s is "
          f"{cold['wall_s'] / limit:.2f}x the limit (the rest: parsing, "
          "lowering and emission that builds do not overlap)")
    if "cpu_s" in cold:
        # What two cores can do at best with all the work the run did.
        cpu_bound = max(cold["cpu_s"] / 2, limit)
        print(f"cold's CPU bound: max(all CPU of xpu-opt, its workers and "
              f"emitters {cold['cpu_s']:.3f} s / 2 cores, the limit) = "
              f"{cpu_bound:.3f} s; cold is {cold['wall_s'] / cpu_bound:.2f}x "
              f"it; the strict baseline over the limit is "
              f"{strict / limit:.1f}x, over the CPU bound "
              f"{strict / cpu_bound:.1f}x")


def print_compiles(s):
    """IGC compiles per kernel, and whether predict decides as measured."""
    cpk = s["compiles_per_kernel"]
    mix_n = s["inputs"]["mix"]
    print()
    print("| auto: IGC compiles per kernel | compiles/kernel | decisions "
          "= measured | target |")
    print("|---|---:|---|---|")
    print(f"| baseline (small; large above {TRITON_SLOTS} slots/lane) | "
          f"{cpk['baseline (Triton retry)']:.2f} | | |")
    print(f"| project, measured (cold; linked: one IGC call per linked "
          f"module) | {cpk['measure (cold)']:.2f} | (reference) | |")
    if "link (cold)" in cpk:
        print(f"| project, link=false (one IGC call per module) | "
              f"{cpk['link (cold)']:.2f} | | |")
    t = TARGETS["compiles_per_kernel"]
    same = s["predict_same_decisions"] == mix_n
    print(f"| project, predict=true link=false | {cpk['predict']:.2f} | "
          f"{s['predict_same_decisions']}/{mix_n} | <= {t}, all equal: "
          f"{met(cpk['predict'], t, at_most=True) if same else '**missed**'}"
          " |")
    if "heavy: predict" in cpk:
        nh = s["inputs"]["kinds"].get("heavy", 0)
        heavy_same = nh - sum(1 for k in s["predict_differing"]
                              if k.startswith("heavy"))
        print(f"| {nh} register-heavy kernels: baseline | "
              f"{cpk['heavy: baseline (Triton retry)']:.2f} | | |")
        print(f"| {nh} register-heavy kernels: project, measured (cold, "
              f"link=false) | "
              f"{cpk['heavy: measure (cold)']:.2f} | (reference) | |")
        ok = (met(cpk["heavy: predict"], t, at_most=True)
              if heavy_same == nh else "**missed**")
        print(f"| {nh} register-heavy kernels: project, predict=true "
              f"link=false | "
              f"{cpk['heavy: predict']:.2f} | {heavy_same}/{nh} | <= {t}, "
              f"all equal: {ok} |")
    if s["predict_differing"]:
        print(f"predict decides differently for: "
              f"{', '.join(s['predict_differing'])}")


def print_baseline_differs(s):
    """The kernels where Triton's threshold keeps another mode."""
    mix_n = s["inputs"]["mix"]
    bd = s["baseline_differs"]
    print()
    print(f"The baseline's mode (Triton's threshold) differs from the "
          f"project's measured decision for {len(bd)} of {mix_n} kernels"
          + (": " + ", ".join(f"{k} (baseline {b}, small spill {sp} B, "
                                f"project {p})"
                                for k, (b, sp, p) in sorted(bd.items()))
             if bd else ""))


def print_processes(s):
    """The features found and the processes xpu-opt starts."""
    print()
    f = s["features"]
    print("features: " + "; ".join(
        f"{k}: {'unknown' if v is None else 'yes' if v else 'no'}"
        for k, v in f.items()))
    p = s["processes"]
    print("processes xpu-opt starts: cold "
          + fmt_procs(p["cold"]) + "; warm " + fmt_procs(p["warm"]))


def print_profile(s):
    """Each run's profile, and perf's top when measured."""
    print()
    print("profile (seconds; from -mlir-timing, the reports' compile_ms "
          "and an empty-module run):")
    tags = list(s["profile"])
    keys = []
    for t in tags:
        keys += [k for k, _ in s["profile"][t] if k not in keys]
    print("| | " + " | ".join(tags) + " |")
    print("|---|" + "---:|" * len(tags))
    for key in keys:
        cells = []
        for t in tags:
            v = dict(s["profile"][t]).get(key)
            cells.append("-" if v is None else str(v) if isinstance(v, int)
                         else f"{v:.3f}")
        print(f"| {key} | " + " | ".join(cells) + " |")
    for tag, text in s["perf"].items():
        print(f"\nperf, {tag} (comm, shared object, >= 2%):\n{text}")


def print_results(s, runs):
    """Whether the results agree across runs, and the load after."""
    print()
    if s["differences"]:
        print(f"results: {len(s['differences'])} DIFFERENCES between runs")
    else:
        checked = "cold, warm, renamed" + (", link" if "link" in runs
                                           else "")
        print(f"results: cold and warm IR byte-identical; per-kernel "
              f"decision, flags, spill, SIMD and GRF count equal across "
              f"{checked}")
    la = s["machine"]["load_after"]
    print(f"load average after: {la[0]:.2f}")


def fmt_procs(counts):
    if counts is None:
        return "not counted"
    if not counts:
        return "none"
    return ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
