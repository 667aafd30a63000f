"""The project's runs: xpu-opt --xpu-codegen-pipeline on a file (timed, its
report and -mlir-timing read), under strace to count the processes it
starts, and on an empty module for process start-up."""
import json
import os
import re
import shutil
import subprocess

from common import ARCH, IGC_KERNELS, BenchError, timed

# A top-level line of -mlir-timing's tree: the name two spaces after the
# wall-time column (nested entries are indented further). The user-time
# column is there only when passes ran on several threads (not in a run
# whose modules all came from the module cache).
TIMING_LINE = re.compile(r"^\s*(?:[\d.]+ \(\s*[\d.]+%\)\s+)?([\d.-]+) "
                         r"\(\s*[\d.-]+%\)  (\S.*)$")


def parse_timing(stderr):
    """[(name, wall seconds)] of the top-level entries of -mlir-timing's
    tree, in order, each name once (the first: a dynamic pipeline a pass
    runs appears again at the top level, inside that pass's time)."""
    entries, seen = [], set()
    for line in stderr.splitlines():
        m = TIMING_LINE.match(line)
        if m and m.group(2) not in seen:
            seen.add(m.group(2))
            entries.append((m.group(2).strip(), float(m.group(1))))
    return entries


def pipeline_options(build_opts):
    return " ".join(f"{k}={v}" for k, v in build_opts.items())


def counts_as_build(attempt):
    """An IGC build that ran (not a cache hit, not replayed)."""
    return attempt.get("cache") != "hit" and attempt.get("compile_ms", 0) > 0


class Project:
    def __init__(self, build, out, env, compiler_root=None):
        self.xpu_opt = os.path.join(build, "bin", "xpu-opt")
        self.out = out
        self.env = env
        self.compiler_root = compiler_root
        self.options = self.pipeline_option_names()

    def pipeline_option_names(self):
        r = subprocess.run([self.xpu_opt, "--help"], capture_output=True,
                           text=True, check=True)
        names, inside = set(), False
        for line in r.stdout.splitlines():
            if re.match(r"\s+--xpu-codegen-pipeline\b", line):
                inside = True
                continue
            if inside:
                m = re.match(r"\s{8,}--([\w-]+)", line)
                if m:
                    names.add(m.group(1))
                elif re.match(r"\s{4,6}--", line):
                    break
        return names

    def args(self, path, tag, opts, timing=True):
        report = os.path.join(self.out, f"{tag}.report.json")
        o = dict(arch=ARCH, **{"grf-mode": "auto"}, backend="ocloc", jobs=2)
        if self.compiler_root:
            o["compiler-root"] = self.compiler_root
        o.update(opts)
        o["report"] = report
        cmd = [self.xpu_opt, path,
               f"--xpu-codegen-pipeline={pipeline_options(o)}",
               "-o", os.path.join(self.out, f"{tag}.out.mlir")]
        if timing:
            cmd += ["-mlir-timing"]
        return cmd, report

    def run(self, path, tag, opts):
        cmd, report = self.args(path, tag, opts)
        if os.path.exists(report):
            os.unlink(report)
        r, wall = timed(cmd, env=self.env)
        stderr = r.stderr.decode(errors="replace")
        if r.returncode != 0 or not os.path.exists(report):
            raise BenchError(f"{tag}: xpu-opt rc {r.returncode}: "
                             f"{stderr.strip()[-800:]}")
        with open(report) as f:
            modules = json.load(f)["modules"]
        errors = [m for m in modules if "error" in m]
        if errors:
            raise BenchError(f"{tag}: {len(errors)} modules failed, first: "
                             f"{errors[0]['module']}: {errors[0]['error']}")
        # Builds that ran: a deduplicated module reuses its original's
        # (its entry repeats them); the modules linked into one share its
        # build (the first lists it, the others mark it "reused") and list
        # the builds of their own (a part split out) as fresh.
        fresh, by_module = [], {}
        for m in modules:
            if "deduplicated_from" in m:
                continue
            mine = [a for a in m.get("attempts", []) if not a.get("reused")]
            fresh += mine
            by_module[m["module"]] = sum(1 for a in mine
                                         if counts_as_build(a))
        return {
            "wall_s": wall, "cpu_s": r.cpu_s, "command": " ".join(cmd),
            "modules": len(modules),
            "kernels": sum(len([k for k in m["kernels"]
                                if k["name"] not in IGC_KERNELS])
                           for m in modules),
            "compiles": sum(1 for a in fresh if counts_as_build(a)),
            "compiles_by_module": by_module,
            "compile_ms_sum": sum(a.get("compile_ms", 0) for a in fresh),
            "compile_ms_max": max((a.get("compile_ms", 0) for a in fresh),
                                  default=0),
            "cache": sorted({str(m.get("cache")) for m in modules}),
            "compiler": sorted({str(m.get("compiler")) for m in modules}),
            "timing": parse_timing(stderr),
            "report": report,
        }

    def count_processes(self, path, tag, opts):
        """Programs xpu-opt starts (untimed run under strace):
        {program basename: count}."""
        if not shutil.which("strace"):
            return None
        cmd, _ = self.args(path, tag, opts, timing=False)
        trace = os.path.join(self.out, f"{tag}.strace")
        r = subprocess.run(["strace", "-f", "-qq", "-s", "1024", "-e",
                            "trace=execve", "-o", trace] + cmd,
                           capture_output=True,
                           env=self.env)
        if r.returncode != 0:
            raise BenchError(f"{tag}: xpu-opt under strace rc "
                             f"{r.returncode}: "
                             f"{r.stderr.decode(errors='replace')[-500:]}")
        counts = {}
        with open(trace) as f:
            for line in f:
                m = re.search(r'execve\("([^"]+)"', line)
                if m:
                    prog = os.path.basename(m.group(1))
                    # A program started through a compiler root's loader
                    # (ld-linux-x86-64.so.2 --library-path DIR PROGRAM).
                    via = re.search(r'execve\("[^"]*", \["[^"]*", '
                                    r'"--library-path", "[^"]*", "([^"]+)"',
                                    line)
                    if prog.startswith("ld-linux") and via:
                        prog = (f"{os.path.basename(via.group(1))} (via "
                                f"{prog})")
                    counts[prog] = counts.get(prog, 0) + 1
        # The traced xpu-opt itself.
        counts["xpu-opt"] = counts.get("xpu-opt", 1) - 1
        return {k: v for k, v in counts.items() if v}

    def startup(self, tag, runs=5):
        """Process start: xpu-opt running the pipeline on an empty module
        (median of `runs`)."""
        empty = os.path.join(self.out, "empty.mlir")
        with open(empty, "w") as f:
            f.write("module {}\n")
        times = []
        for _ in range(runs):
            cmd, _ = self.args(empty, tag, {"cache-dir": "none"},
                               timing=False)
            r, t = timed(cmd, env=self.env)
            if r.returncode != 0:
                raise BenchError("xpu-opt on an empty module failed")
            times.append(t)
        return sorted(times)[len(times) // 2]
