"""Where a run's time went: its profile from -mlir-timing and the report's
compile_ms, and the top of `perf record`."""
import os
import shutil
import subprocess

TIMING_NAMES = {"Parser": "parse",
                "'gpu.module' Pipeline": "lowering ('gpu.module' pipeline)",
                "XPUEmitSPIRV": "SPIR-V emission (XPUEmitSPIRV)",
                "XPUNativeCodegen": "native codegen (XPUNativeCodegen)",
                "Output": "output"}


def profile(run, startup_s, jobs):
    """Where a run's wall time went (seconds): [(what, seconds)]."""
    rows = [("wall", run["wall_s"]),
            ("process start (xpu-opt on an empty module)", startup_s)]
    total = 0.0
    for name, wall in run["timing"]:
        if name == "Total":
            total = wall
            continue
        if name == "Rest":  # MLIR's; negative when passes ran in parallel.
            continue
        rows.append((TIMING_NAMES.get(name, name), wall))
        if name == "XPUNativeCodegen":
            igc = run["compile_ms_sum"] / 1000.0
            rows += [(f"  IGC builds that ran", run["compiles"]),
                     (f"  IGC time per build (compile_ms)",
                      igc / run["compiles"] if run["compiles"] else 0.0),
                     (f"  IGC time / jobs={jobs}", igc / jobs),
                     ("  rest (workers, validation, cache I/O)",
                      max(wall - igc / jobs, 0.0))]
    rows.append(("outside the pass manager (start, exit)",
                 max(run["wall_s"] - total, 0.0)))
    return rows


def perf_top(cmd, out, env, tag):
    """Top shared objects and symbols of one run under `perf record`."""
    if not shutil.which("perf"):
        return None
    data = os.path.join(out, f"{tag}.perf.data")
    r = subprocess.run(["perf", "record", "-q", "-F", "999", "-g", "-o", data,
                        "--"] + cmd, capture_output=True, env=env)
    if r.returncode != 0:
        return f"perf record failed: {r.stderr.decode(errors='replace')[-200:]}"
    rep = subprocess.run(["perf", "report", "-i", data, "--stdio",
                          "--no-children", "--sort", "comm,dso",
                          "--percent-limit", "2", "-g", "none"],
                         capture_output=True, text=True)
    lines = [l for l in rep.stdout.splitlines()
             if l.strip() and not l.startswith("#")]
    return "\n".join(lines[:15])
