#!/usr/bin/env python3
"""Whole-pipeline benchmark: MLIR to native code, this project against what
users do today (upstream MLIR + one `ocloc` process per module).

Usage: bench.py BUILD_DIR [--quick] [--out DIR] [--full-baseline] [--perf]
                [--compiler-root DIR]

The compiler: the system's `ocloc` (IGC 1.0.12504 on Debian 12) by default;
with --compiler-root DIR (or $XPU_CODEGEN_COMPILER_ROOT), an ocloc
installation such as tools/install-compiler's IGC 2.40 root: the baseline's
ocloc processes are DIR's ocloc, started through DIR's own dynamic loader
when it has one, and every xpu-opt run gets `compiler-root=DIR`. Both sides
always use the same compiler; its identity is printed and recorded
("compiler" in results.json).

Inputs (gen_inputs.py, generated here): an Inductor-like mix of 64 modules,
one kernel each (48 pointwise, 8 loop reductions, 8 register-heavy), each
with a host function that launches it; and an IREE-like set of 1000 modules,
50 unique, the rest renamed copies. Runs, all on pvc, in this order:

  baseline  upstream style: Debian's `mlir-opt --gpu-lower-to-xevm-pipeline=
            "zebin-chip=pvc binary-format=bin xegpu-op-level=lane"` lowers
            every module in one process (timed); the SPIR-V of each
            #xevm.target object is compiled by one `ocloc` process per
            module, serially, as Triton does for `auto`: build small; if the
            build spills more than 16 slots per lane (spill_size // (4 *
            SIMD)), build again large.
  cold      xpu-opt --xpu-codegen-pipeline="arch=pvc grf-mode=auto
            backend=ocloc jobs=2 cache-dir=<fresh>" on the mix;
  warm      the same command, same cache directory;
  renamed   the 1000-module set, cold (fresh cache), dedupe=true;
  predict   the mix, cold, predict=true: compiles per kernel and whether
            each decision equals the measured one (cold);
  link      the mix, cold, link=true (when xpu-opt has the option).

Features other engineers add are detected, not assumed: `link` from
xpu-opt's option list; a cache before lowering and emission without a
process per module from the processes xpu-opt starts (counted with strace
in extra, untimed runs).

It checks that the results do not depend on how they were obtained: the
cold and warm IR are byte-identical, and every kernel's decision, flags,
spill, SIMD and GRF count are the same in the cold, warm, renamed (mapped
back to the original kernel) and linked runs. A difference fails the
benchmark (exit 1). Prints the table and a profile of each run (process
start, parse, lowering, SPIR-V emission, native codegen and, within it, IGC
time from the report's compile_ms) and writes OUT/results.json.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_inputs  # noqa: E402

MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
ARCH = "pvc"
GRF_BYTES = 64  # IGC's "spilled around N" counts 64-byte GRFs on pvc.
LIB_DIR = os.path.join("usr", "lib", "x86_64-linux-gnu")
LOADER = "ld-linux-x86-64.so.2"
OCLOC_FLAGS = {"small": "-cl-intel-128-GRF-per-thread",
               "large": "-cl-intel-256-GRF-per-thread"}
TRITON_SLOTS = 16  # Triton rebuilds large above 16 spill slots per lane.
# Both compilers' build log lines for a spilling kernel:
#   IGC 1.0.12504: "warning: kernel p16_k  compiled SIMD16 allocated 128 regs
#                   and spilled around 136"
#   IGC 2.x:       "warning: in kernel 'K': compiled SIMD32 allocated 128
#                   regs and spilled around 90"
SPILL_LINE = re.compile(r"kernel (?:'([^']+)':|(\S+))\s+compiled SIMD(\d+) "
                        r"allocated (\d+) regs and spilled around (\d+)")
IGC_KERNELS = {"Intel_Symbol_Table_Void_Program"}
TARGETS = {"cold": 5.0, "warm": 100.0, "renamed": 20.0,
           "compiles_per_kernel": 1.1}
# Report fields that are results. Everything else (cache, compile_ms,
# reused, deduplicated_from, linked_into, the module's own name, ...) says
# how a result was obtained and may differ between runs.
MODULE_RESULT_FIELDS = ["arch", "backend", "grf_mode", "n_regs", "spill_size",
                        "build_flags", "subgroup_size", "error"]
KERNEL_RESULT_FIELDS = ["grf_count", "simd", "spill_size", "private_size",
                        "n_spills"]


class BenchError(Exception):
    pass


def timed(cmd, **kw):
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, **kw)
    return r, time.perf_counter() - start


def unescape_mlir_string(s):
    """The bytes of an MLIR string attribute's body (\\XX hex, \\\\, \\")."""
    out = bytearray()
    i, n = 0, len(s)
    while i < n:
        j = s.find("\\", i)
        if j < 0:
            out += s[i:].encode("latin-1")
            break
        out += s[i:j].encode("latin-1")
        nxt = s[j + 1]
        if nxt in "\\\"":
            out.append(ord(nxt))
            i = j + 2
        elif nxt == "n":
            out.append(10)
            i = j + 2
        elif nxt == "t":
            out.append(9)
            i = j + 2
        else:
            out.append(int(s[j + 1:j + 3], 16))
            i = j + 3
    return bytes(out)


BINARY = re.compile(r'gpu\.binary @([\w$.]+)\s*\[#gpu\.object<#xevm\.target'
                    r'<[^>]*>(?:, properties = \{[^}]*\})?, bin = '
                    r'"((?:[^"\\]|\\.)*)">\]')


def upstream_spirv(text):
    """{module: SPIR-V bytes} of the #xevm.target objects mlir-opt wrote."""
    return {m.group(1): unescape_mlir_string(m.group(2))
            for m in BINARY.finditer(text)}


# --- baseline -------------------------------------------------------------

class Compiler:
    """An ocloc installation: the system's (`ocloc` on PATH) or a root
    directory (ROOT/usr/bin/ocloc*, its libraries in ROOT/usr/lib/
    x86_64-linux-gnu, started through that directory's loader when it has
    one, so nothing of the root's C/C++ runtime meets the system's)."""

    def __init__(self, root=None):
        self.root = root
        if root is None:
            exe = shutil.which("ocloc")
            if not exe:
                raise BenchError("ocloc not on PATH")
            self.ocloc = [exe]
            self.env = None
            return
        lib = os.path.join(root, LIB_DIR)
        bindir = os.path.join(root, "usr", "bin")
        names = sorted(n for n in (os.listdir(bindir)
                                   if os.path.isdir(bindir) else [])
                       if n == "ocloc" or n.startswith("ocloc-"))
        if not names:
            raise BenchError(f"--compiler-root {root}: no ocloc in {bindir}")
        exe = os.path.join(bindir, names[-1])
        if os.path.exists(os.path.join(lib, LOADER)):
            self.ocloc = [os.path.join(lib, LOADER), "--library-path", lib,
                          exe]
            self.env = None
        else:
            self.ocloc = [exe]
            self.env = dict(os.environ, LD_LIBRARY_PATH=lib)

    def run(self, args, cwd):
        return timed(self.ocloc + args, cwd=cwd, env=self.env)

    def driver_version(self, work):
        """`ocloc query OCL_DRIVER_VERSION` (the compute-runtime release;
        ocloc 22.43 has no --version)."""
        qdir = tempfile.mkdtemp(dir=work)
        try:
            r, _ = self.run(["query", "OCL_DRIVER_VERSION"], qdir)
            path = os.path.join(qdir, "OCL_DRIVER_VERSION")
            if r.returncode != 0 or not os.path.exists(path):
                return "unknown"
            with open(path, errors="replace") as f:
                return f.read().replace("\0", "").strip()
        finally:
            shutil.rmtree(qdir, ignore_errors=True)

    def igc_version(self):
        """IGC's version from its library's name (libigc.so.2.40.14+0) or,
        for the system's, from dpkg (libigc1 1.0.12504.6-1+deb12u1)."""
        if self.root:
            lib = os.path.join(self.root, LIB_DIR)
            for n in sorted(os.listdir(lib)):
                m = re.match(r"libigc\.so\.(\d+\.\d+\.\d+)", n)
                if m:
                    return m.group(1)
            return "unknown"
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}",
                            "libigc1"], capture_output=True, text=True)
        m = re.match(r"(\d+\.\d+\.\d+)", r.stdout)
        return m.group(1) if r.returncode == 0 and m else "unknown"


def ze_info_spills(zebin):
    """{kernel: (simd, spill bytes)} from a zebin's .ze_info when it has
    execution_env.spill_size (IGC 2.x); {} otherwise (IGC 1.0.12504's
    .ze_info 1.20 has no such field). A minimal ELF64 section reader."""
    import struct
    if len(zebin) < 64 or zebin[:4] != b"\x7fELF":
        return {}
    shoff, = struct.unpack_from("<Q", zebin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", zebin, 0x3a)
    sections = [struct.unpack_from("<IIQQQQ", zebin, shoff + i * shentsize)
                for i in range(shnum)]
    names_off = sections[shstrndx][4]
    text = None
    for name_off, _, _, _, off, size in sections:
        end = zebin.index(b"\0", names_off + name_off)
        if zebin[names_off + name_off:end] == b".ze_info":
            text = zebin[off:off + size].decode(errors="replace")
    if text is None:
        return {}
    spills, name, simd = {}, None, None
    for line in text.splitlines():
        m = re.match(r"\s*- name:\s*(\S+)", line)
        if m:
            name, simd = m.group(1), None
        m = re.match(r"\s*simd_size:\s*(\d+)", line)
        if m:
            simd = int(m.group(1))
        m = re.match(r"\s*spill_size:\s*(\d+)", line)
        if m and name:
            spills[name] = (simd or 0, int(m.group(1)))
    return spills


def ocloc_build(compiler, spv, flags, work):
    """One ocloc process; (seconds, {kernel: (simd, spill bytes)}, error).
    Spills as Triton reads them: .ze_info spill_size where the compiler
    writes it (IGC 2.x), else the build log's line (64-byte GRFs; both
    compilers' formats)."""
    odir = tempfile.mkdtemp(dir=work)
    r, t = compiler.run(["compile", "-file", spv, "-spirv_input",
                         "-device", ARCH, "-internal_options",
                         "-ze-allow-zebin", "-options", flags, "-output",
                         "k", "-output_no_suffix", "-out_dir", odir], odir)
    log = (r.stdout + r.stderr).decode(errors="replace")
    # ocloc 22.43 writes k; ocloc 26 appends .bin whatever
    # -output_no_suffix says.
    out = next((os.path.join(odir, n) for n in ("k", "k.bin")
                if os.path.exists(os.path.join(odir, n))), None)
    zebin = b""
    if out:
        with open(out, "rb") as f:
            zebin = f.read()
    ok = r.returncode == 0 and out is not None
    shutil.rmtree(odir, ignore_errors=True)
    spills = {(m.group(1) or m.group(2)): (int(m.group(3)),
                                            int(m.group(5)) * GRF_BYTES)
              for m in SPILL_LINE.finditer(log)}
    if ok:
        spills.update({k: v for k, v in ze_info_spills(zebin).items()
                       if v[1] > 0 and k not in IGC_KERNELS})
    err = None if ok else f"ocloc rc {r.returncode}: {log.strip()[-200:]}"
    return t, spills, err


def triton_auto(compiler, spv, work):
    """Triton's retry: small, then large when small spills > 16 slots."""
    t, spills, err = ocloc_build(compiler, spv, OCLOC_FLAGS["small"], work)
    res = {"seconds": t, "builds": 1, "error": err, "mode": "small",
           "spill_small": max([s for _, s in spills.values()], default=0)}
    if err:
        return res
    if any(s // (4 * simd) > TRITON_SLOTS for simd, s in spills.values()):
        t2, spills2, err2 = ocloc_build(compiler, spv, OCLOC_FLAGS["large"],
                                        work)
        res.update(seconds=t + t2, builds=2, error=err2, mode="large",
                   spill_large=max([s for _, s in spills2.values()],
                                   default=0))
    return res


def upstream_lower(path, out):
    """Upstream's lowering of a file, one mlir-opt process (timed):
    (seconds, {module: SPIR-V bytes})."""
    r, seconds = timed([MLIR_OPT, path, "--gpu-lower-to-xevm-pipeline="
                        f"zebin-chip={ARCH} binary-format=bin "
                        "xegpu-op-level=lane", "-o", out])
    if r.returncode != 0:
        raise BenchError(f"upstream mlir-opt failed on {path}: "
                         + r.stderr.decode(errors="replace")[-500:])
    with open(out, encoding="latin-1") as f:
        return seconds, upstream_spirv(f.read())


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
        res = {"seconds": 0.0, "builds": 0, "error": None,
               "failed_s": 0.0, "relower_s": 0.0}
        per_module[name] = res
        if name in spirv:
            spv = os.path.join(spv_dir, name + ".spv")
            with open(spv, "wb") as f:
                f.write(spirv[name])
            res.update(triton_auto(compiler, spv, work))
        else:
            res["error"] = "no SPIR-V object from mlir-opt"
        if not res["error"]:
            continue
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


# --- the project ----------------------------------------------------------

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
            "wall_s": wall, "command": " ".join(cmd),
            "modules": len(modules),
            "kernels": sum(len([k for k in m["kernels"]
                                if k["name"] not in IGC_KERNELS])
                           for m in modules),
            "compiles": sum(1 for a in fresh if counts_as_build(a)),
            "compiles_by_module": by_module,
            "compile_ms_sum": sum(a.get("compile_ms", 0) for a in fresh),
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


# --- comparing results ----------------------------------------------------

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


# --- profile --------------------------------------------------------------

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


# --- main -----------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?")
    parser.add_argument("--check", metavar="DIR",
                        help="only check the results of an earlier run in "
                        "DIR (its --out) again; exit 1 if they differ")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke test: 3 modules (1 pointwise, 1 "
                        "reduction, 1 heavy that fits small GRF) and a renamed "
                        "set of 4 modules, 2 unique; no strace run of cold; the whole baseline compiled")
    parser.add_argument("--out", help="output directory (default "
                        "BUILD_DIR/bench/pipeline, with --compiler-root DIR "
                        "BUILD_DIR/bench/pipeline-<DIR's name>)")
    parser.add_argument("--full-baseline", action="store_true",
                        help="compile every module of the renamed set with "
                        "ocloc (default: a sample of --sample modules)")
    parser.add_argument("--sample", type=int, default=200,
                        help="modules of the renamed set compiled by the "
                        "baseline (default 200)")
    parser.add_argument("--perf", action="store_true",
                        help="also run cold and warm under perf record and "
                        "print the top shared objects")
    parser.add_argument("--no-baseline", action="store_true",
                        help=argparse.SUPPRESS)
    parser.add_argument("--compiler-root", metavar="DIR",
                        help="the compiler, an ocloc installation (e.g. "
                        ".compilers/igc-2.40): the baseline's ocloc and "
                        "xpu-opt's compiler-root=DIR (default "
                        "$XPU_CODEGEN_COMPILER_ROOT, else the system's "
                        "ocloc)")
    args = parser.parse_args()
    if args.check:
        diffs = check(args.check)
        if diffs:
            print_differences(diffs)
            return 1
        print("results: no differences")
        return 0
    if not args.build:
        parser.error("BUILD_DIR is required")
    build = os.path.abspath(args.build)
    for tool in (os.path.join(build, "bin", "xpu-opt"), MLIR_OPT):
        if not os.path.exists(tool):
            sys.exit(f"bench.py: {tool} not found")
    root = (args.compiler_root
            or os.environ.get("XPU_CODEGEN_COMPILER_ROOT") or None)
    if root:
        root = os.path.abspath(root)
    # The system compiler's results in bench/pipeline, another's beside
    # them (bench/pipeline-igc-2.40).
    out = os.path.abspath(args.out or os.path.join(
        build, "bench", "pipeline" + (
            "-" + os.path.basename(os.path.normpath(root)) if root else "")))
    try:
        compiler = Compiler(root)
    except BenchError as e:
        sys.exit(f"bench.py: {e}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    # The compiler is passed explicitly (compiler-root=), never inherited.
    env = {k: v for k, v in os.environ.items()
           if k not in ("XPU_CODEGEN_CACHE_DIR", "XPU_CODEGEN_CACHE_URL",
                        "XPU_CODEGEN_COMPILER_ROOT")}
    try:
        return run_all(args, build, out, env, compiler)
    except BenchError as e:
        print(f"bench.py: FAILED: {e}", file=sys.stderr)
        return 1


def write_inputs(out, quick):
    if quick:
        specs = gen_inputs.mix(1, 1, 1)
        n_renamed, n_unique = 4, 2
    else:
        specs = gen_inputs.mix()
        n_renamed, n_unique = 1000, 50
    mix = gen_inputs.mix_modules(specs)
    renamed = gen_inputs.renamed_modules(specs, n_renamed, n_unique)
    paths = {}
    for tag, mods in (("mix", mix), ("renamed", renamed)):
        paths[tag] = os.path.join(out, f"{tag}.mlir")
        with open(paths[tag], "w") as f:
            f.write(gen_inputs.document([m[3] for m in mods]))
    kinds = {}
    for _, kind, _, _ in mix:
        kinds[kind] = kinds.get(kind, 0) + 1
    return paths, mix, renamed, kinds


def run_all(args, build, out, env, compiler):
    load_before = os.getloadavg()
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = subprocess.run(["git", "-C", HERE, "rev-parse", "--short",
                             "HEAD"], capture_output=True,
                            text=True).stdout.strip() or None
    ident = {"root": compiler.root or "system",
             "ocloc": " ".join(compiler.ocloc),
             "driver": compiler.driver_version(out),
             "igc": compiler.igc_version()}
    ident["name"] = (f"IGC {ident['igc']} (ocloc {ident['driver']}, "
                     + (compiler.root or "system ocloc") + ")")
    print(f"compiler: {ident['name']}; device: {ARCH}", flush=True)
    paths, mix, renamed, kinds = write_inputs(out, args.quick)
    original_of = {name: orig for name, _, orig, _ in renamed}
    n_unique = len(set(original_of.values()))
    print(f"inputs: mix of {len(mix)} modules ("
          + ", ".join(f"{v} {k}" for k, v in kinds.items())
          + f"); renamed set of {len(renamed)} modules, {n_unique} unique; "
          f"load average {load_before[0]:.2f}, {os.cpu_count()} cores",
          flush=True)
    project = Project(build, out, env, compiler.root)
    has_link = "link" in project.options
    features = {"link": has_link}
    print("xpu-codegen-pipeline options: link="
          + ("yes" if has_link else "no"), flush=True)

    # The baseline.
    work = os.path.join(out, "baseline")
    os.makedirs(os.path.join(work, "mix"))
    os.makedirs(os.path.join(work, "renamed"))
    texts = lambda mods: {n: gen_inputs.document([t]) for n, _, _, t in mods}
    base = baseline(compiler, paths["mix"], os.path.join(work, "mix"),
                    texts(mix))
    report_baseline("mix", base)
    sample = None
    if not (args.quick or args.full_baseline):
        first = {}
        for name, _, orig, _ in renamed:
            first.setdefault(orig, name)
        sample = list(first.values())
        sample += [n for n, _, _, _ in renamed
                   if n not in sample][:max(args.sample - len(sample), 0)]
    base_renamed = baseline(compiler, paths["renamed"],
                            os.path.join(work, "renamed"),
                            texts(renamed), original_of, sample)
    report_baseline("renamed", base_renamed)

    # The project.
    cache = lambda tag: os.path.join(out, f"cache-{tag}")
    runs = {}
    runs["cold"] = project.run(paths["mix"], "cold",
                               {"cache-dir": cache("cold")})
    print(f"cold: {runs['cold']['wall_s']:.2f} s", flush=True)
    runs["warm"] = project.run(paths["mix"], "warm",
                               {"cache-dir": cache("cold")})
    print(f"warm: {runs['warm']['wall_s']:.3f} s", flush=True)
    runs["renamed"] = project.run(paths["renamed"], "renamed",
                                  {"cache-dir": cache("renamed"),
                                   "dedupe": "true"})
    print(f"renamed: {runs['renamed']['wall_s']:.2f} s", flush=True)
    runs["predict"] = project.run(paths["mix"], "predict",
                                  {"cache-dir": cache("predict"),
                                   "predict": "true"})
    print(f"predict: {runs['predict']['wall_s']:.2f} s", flush=True)
    if has_link:
        runs["link"] = project.run(paths["mix"], "link",
                                   {"cache-dir": cache("link"),
                                    "link": "true"})
        print(f"link: {runs['link']['wall_s']:.2f} s", flush=True)

    # Untimed: what processes the runs start, and process start-up.
    procs = {
        "warm": project.count_processes(paths["mix"], "warm-strace",
                                        {"cache-dir": cache("cold")}),
        "cold": None if args.quick else project.count_processes(
            paths["mix"], "cold-strace", {"cache-dir": cache("strace")}),
    }
    # None: not measured (no strace, or --quick for the cold run).
    features["cache before lowering"] = (None if procs["warm"] is None
                                         else not procs["warm"])
    features["emission without a process per module"] = (
        None if procs["cold"] is None
        else procs["cold"].get("llc", 0) < len(mix))
    startup_s = project.startup("empty", 3 if args.quick else 7)

    # Done means: results do not depend on how they were obtained.
    with open(os.path.join(out, "modules.json"), "w") as f:
        json.dump({"original_of": original_of, "runs": list(runs)}, f,
                  indent=1)
    diffs = check(out)
    measured = decisions(runs["cold"]["report"])
    predicted = decisions(runs["predict"]["report"])
    same_decisions = sum(1 for k, v in measured.items()
                         if predicted.get(k, (None,))[0] == v[0])
    differing = sorted(k for k, v in measured.items()
                       if predicted.get(k, (None,))[0] != v[0])
    # Where Triton's fixed threshold keeps another mode than measurement.
    triton_differs = {
        k: (m["mode"], m.get("spill_small", 0), measured[k][0])
        for k, m in base["per_module"].items()
        if k in measured and m.get("mode") != measured[k][0]}

    ratios = {
        "cold": base["total_s"] / runs["cold"]["wall_s"],
        "warm": base["total_s"] / runs["warm"]["wall_s"],
        "renamed": base_renamed["total_s"] / runs["renamed"]["wall_s"],
        "predict": base["total_s"] / runs["predict"]["wall_s"],
    }
    if has_link:
        ratios["link"] = base["total_s"] / runs["link"]["wall_s"]
    kernels = len(mix)
    cpk = {
        "baseline (Triton retry)": base["builds"] / kernels,
        "measure (cold)": runs["cold"]["compiles"] / kernels,
        "predict": runs["predict"]["compiles"] / kernels,
    }
    if has_link:
        cpk["link (cold)"] = runs["link"]["compiles"] / kernels
    # The register-heavy kernels alone (issue 21: at most 1.1 builds per
    # kernel under predict=true there).
    heavy = [n for n, kind, _, _ in mix if kind == "heavy"]
    if heavy:
        cpk["heavy: baseline (Triton retry)"] = sum(
            base["per_module"][n]["builds"] for n in heavy) / len(heavy)
        for tag, key in (("cold", "measure (cold)"), ("predict", "predict")):
            cpk[f"heavy: {key}"] = sum(
                runs[tag]["compiles_by_module"].get(n, 0)
                for n in heavy) / len(heavy)
    profiles = {tag: profile(r, startup_s, 2) for tag, r in runs.items()}
    perf = {}
    if args.perf:
        for tag, opts in (("warm", {"cache-dir": cache("cold")}),
                          ("cold", {"cache-dir": cache("perf")})):
            cmd, _ = project.args(paths["mix"], f"{tag}-perf", opts,
                                  timing=False)
            perf[tag] = perf_top(cmd, out, env, tag)
    load_after = os.getloadavg()

    # The compiler identity every project run's report names (one each).
    ident["report"] = sorted({c for r in runs.values()
                              for c in r["compiler"]})
    summary = {
        "quick": args.quick, "arch": ARCH, "compiler": ident,
        "commit": commit, "date": date,
        "xpu_opt_built": time.strftime(
            "%Y-%m-%d %H:%M:%S UTC",
            time.gmtime(os.path.getmtime(project.xpu_opt))),
        "machine": {"cores": os.cpu_count(), "load_before": load_before,
                    "load_after": load_after},
        "inputs": {"mix": len(mix), "kinds": kinds,
                   "renamed": len(renamed), "unique": n_unique},
        "features": features, "processes": procs,
        "baseline": {"mix": strip(base), "renamed": strip(base_renamed)},
        "runs": {k: {kk: vv for kk, vv in v.items() if kk != "timing"}
                 for k, v in runs.items()},
        "timing": {k: v["timing"] for k, v in runs.items()},
        "ratios": ratios, "compiles_per_kernel": cpk,
        "predict_same_decisions": same_decisions,
        "predict_differing": differing,
        "baseline_differs": triton_differs,
        "profile": profiles, "perf": perf, "differences": diffs,
        "targets": TARGETS,
    }
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump(summary, f, indent=2)
    print_table(summary, base, base_renamed, runs, startup_s)
    print(f"JSON: {os.path.join(out, 'results.json')}")
    if diffs:
        print_differences(diffs)
        return 1
    return 0


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
    r = s["ratios"]
    mix_n, ren_n = s["inputs"]["mix"], s["inputs"]["renamed"]
    rows = baseline_rows(base, f"{mix_n} modules") + [
        ("cold, jobs=2", runs["cold"]["wall_s"], f"{r['cold']:.1f}x",
         f">= {TARGETS['cold']:.0f}x: {met(r['cold'], TARGETS['cold'])}"),
        ("warm (same cache)", runs["warm"]["wall_s"], f"{r['warm']:.1f}x",
         f">= {TARGETS['warm']:.0f}x: {met(r['warm'], TARGETS['warm'])}"),
        ("auto with predict=true, cold", runs["predict"]["wall_s"],
         f"{r['predict']:.1f}x", ""),
    ]
    if "link" in runs:
        rows.append(("link=true, cold", runs["link"]["wall_s"],
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
    cpk = s["compiles_per_kernel"]
    print()
    print("| auto: IGC compiles per kernel | compiles/kernel | decisions "
          "= measured | target |")
    print("|---|---:|---|---|")
    print(f"| baseline (small; large above {TRITON_SLOTS} slots/lane) | "
          f"{cpk['baseline (Triton retry)']:.2f} | | |")
    print(f"| project, measured (cold) | {cpk['measure (cold)']:.2f} | "
          f"(reference) | |")
    if "link (cold)" in cpk:
        print(f"| project, link=true (one IGC call per linked module) | "
              f"{cpk['link (cold)']:.2f} | | |")
    t = TARGETS["compiles_per_kernel"]
    same = s["predict_same_decisions"] == mix_n
    print(f"| project, predict=true | {cpk['predict']:.2f} | "
          f"{s['predict_same_decisions']}/{mix_n} | <= {t}, all equal: "
          f"{met(cpk['predict'], t, at_most=True) if same else '**missed**'}"
          " |")
    if "heavy: predict" in cpk:
        nh = s["inputs"]["kinds"].get("heavy", 0)
        heavy_same = nh - sum(1 for k in s["predict_differing"]
                              if k.startswith("heavy"))
        print(f"| {nh} register-heavy kernels: baseline | "
              f"{cpk['heavy: baseline (Triton retry)']:.2f} | | |")
        print(f"| {nh} register-heavy kernels: project, measured (cold) | "
              f"{cpk['heavy: measure (cold)']:.2f} | (reference) | |")
        ok = (met(cpk["heavy: predict"], t, at_most=True)
              if heavy_same == nh else "**missed**")
        print(f"| {nh} register-heavy kernels: project, predict=true | "
              f"{cpk['heavy: predict']:.2f} | {heavy_same}/{nh} | <= {t}, "
              f"all equal: {ok} |")
    if s["predict_differing"]:
        print(f"predict decides differently for: "
              f"{', '.join(s['predict_differing'])}")
    bd = s["baseline_differs"]
    print()
    print(f"The baseline's mode (Triton's threshold) differs from the "
          f"project's measured decision for {len(bd)} of {mix_n} kernels"
          + (": " + ", ".join(f"{k} (baseline {b}, small spill {sp} B, "
                                f"project {p})"
                                for k, (b, sp, p) in sorted(bd.items()))
             if bd else ""))
    print()
    f = s["features"]
    print("features: " + "; ".join(
        f"{k}: {'unknown' if v is None else 'yes' if v else 'no'}"
        for k, v in f.items()))
    p = s["processes"]
    print("processes xpu-opt starts: cold "
          + fmt_procs(p["cold"]) + "; warm " + fmt_procs(p["warm"]))
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


if __name__ == "__main__":
    sys.exit(main())
