#!/usr/bin/env python3
"""Parity benchmark: upstream MLIR's XeVM path + ocloc vs this project.

For every kernel of the parity suite (test/Parity/*.mlir, the same inputs the
lit tests check), compiled on pvc:

* upstream: Debian's stock `mlir-opt --gpu-lower-to-xevm-pipeline=
  "zebin-chip=<arch> binary-format=isa xegpu-op-level=<level>"`, one process
  per gpu.module (llvm/llvm-project#160613: LLVM 22's SPIR-V backend keeps
  state across modules); the SPIR-V assembly of each #xevm.target object is
  assembled with `spirv-as --target-env spv1.4` and compiled by one
  `ocloc compile ... -options -cl-intel-128-GRF-per-thread` process, then
  again with the 256 flag. SIMD width from the zebin (the project's reader,
  xpu_codegen.read_zebin), spill from IGC's build log ("spilled around N"
  GRFs of 64 bytes, docs/SpillMeasurement.md).
* project: `xpu-opt --xpu-codegen-pipeline="arch=<arch> grf-mode=auto
  cache-dir=none xegpu-op-level=<level> report=..."` on the whole file, one
  process; SIMD, the small build's spill and the decision from the report.

The xegpu-op-level of a file is the one its RUN line gives the project
(lane when it gives none). Prints one row per kernel, totals and the time
ratio; writes BUILD_DIR/bench/parity/results.json (work files in work/).

Usage: bench.py BUILD_DIR [--arch pvc] [--suite DIR] [--out FILE]
       bench.py --list [--suite DIR]   (what it would compile; no tools)
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
GRF_FLAGS = {"small": "-cl-intel-128-GRF-per-thread",
             "large": "-cl-intel-256-GRF-per-thread"}
GRF_BYTES = {"pvc": 64}
# Kernels IGC adds on its own to a zebin; never a kernel of the input.
IGC_KERNELS = {"Intel_Symbol_Table_Void_Program"}
SPILL_LINE = re.compile(r"kernel (\S+)\s+compiled SIMD(\d+) allocated (\d+) "
                        r"regs and spilled around (\d+)")


def split_modules(text):
    """The input once per gpu.module, each copy keeping only that module.

    The parity files keep every gpu.module at two spaces of indentation and
    close it with a line holding only "  }" (test/Parity/README.md).
    """
    lines = text.splitlines(keepends=True)
    spans, start, name = [], None, None
    for i, line in enumerate(lines):
        m = re.match(r"  gpu\.module @([\w$.]+)", line)
        if m and start is None:
            start, name = i, m.group(1)
        elif start is not None and line.rstrip("\n") == "  }":
            spans.append((name, start, i + 1))
            start = None
    if start is not None:
        raise ValueError(f"gpu.module @{name} is not closed by '  }}'")
    result = {}
    for name, begin, end in spans:
        keep = [l for j, l in enumerate(lines)
                if not any(b <= j < e for n, b, e in spans if n != name)]
        result[name] = "".join(keep)
    return result


def kernels_of(module_text):
    names = []
    for m in re.finditer(r"gpu\.func @([\w$.]+)\(.*?\)\s*kernel\b|"
                         r"llvm\.func spir_kernelcc @([\w$.]+)\(",
                         module_text, re.S):
        names.append(m.group(1) or m.group(2))
    return names


def unescape_mlir_string(s):
    """The bytes of an MLIR string attribute's body (\\XX hex, \\\\, \\")."""
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            nxt = s[i + 1]
            if nxt in "\\\"":
                out.append(ord(nxt))
                i += 2
            elif nxt == "n":
                out.append(10)
                i += 2
            elif nxt == "t":
                out.append(9)
                i += 2
            else:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
        else:
            out.extend(c.encode())
            i += 1
    return bytes(out)


def xevm_assembly(mlir_text):
    m = re.search(r'#xevm\.target<[^>]*>, properties = \{[^}]*\}, '
                  r'assembly = "((?:[^"\\]|\\.)*)"', mlir_text)
    # MLIR 22 keeps the C string's terminating NUL in the attribute.
    return (unescape_mlir_string(m.group(1)).rstrip(b"\0").decode()
            if m else None)


def run(cmd, **kw):
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    return r, time.perf_counter() - start


def first_error(text):
    """The first line that says what went wrong (an MLIR error, an LLVM
    fatal error), else the last line."""
    lines = [l.strip() for l in text.strip().splitlines() if l.strip()]
    for l in lines:
        if "error:" in l or "LLVM ERROR" in l:
            return l[:200]
    return lines[-1][:200] if lines else ""


def upstream_module(name, text, level, arch, work, read_zebin):
    """Upstream's path for one gpu.module: lower, assemble, ocloc x 2."""
    res = {"module": name, "compiled": False, "seconds": 0.0, "error": None,
           "kernels": {}, "ocloc_s": {}}
    src = os.path.join(work, f"{name}.in.mlir")
    with open(src, "w") as f:
        f.write(text)
    out = os.path.join(work, f"{name}.upstream.mlir")
    r, t = run([MLIR_OPT, src, "--gpu-lower-to-xevm-pipeline="
                f"zebin-chip={arch} binary-format=isa xegpu-op-level={level}",
                "-o", out])
    res["seconds"] += t
    if r.returncode != 0:
        res["error"] = (f"mlir-opt rc {r.returncode}: "
                        f"{first_error(r.stderr).replace(work + os.sep, '')}")
        return res
    with open(out) as f:
        asm = xevm_assembly(f.read())
    if asm is None:
        res["error"] = "no #xevm.target object with SPIR-V assembly"
        return res
    spvasm = os.path.join(work, f"{name}.spvasm")
    spv = os.path.join(work, f"{name}.spv")
    with open(spvasm, "w") as f:
        f.write(asm)
    r, t = run(["spirv-as", "--target-env", "spv1.4", spvasm, "-o", spv])
    res["seconds"] += t
    if r.returncode != 0:
        res["error"] = f"spirv-as: {first_error(r.stderr)}"
        return res
    for mode, flag in GRF_FLAGS.items():
        odir = tempfile.mkdtemp(prefix=f"{name}-{mode}-", dir=work)
        r, t = run(["ocloc", "compile", "-file", spv, "-spirv_input",
                    "-device", arch, "-internal_options", "-ze-allow-zebin",
                    "-options", flag, "-output", "k", "-output_no_suffix",
                    "-out_dir", odir], cwd=odir)
        res["seconds"] += t
        res["ocloc_s"][mode] = t
        log = r.stdout + r.stderr
        zebin = os.path.join(odir, "k")
        if r.returncode != 0 or not os.path.exists(zebin):
            res["error"] = (f"ocloc {mode} rc {r.returncode}: "
                            f"{first_error(log)}")
            return res
        spills = {m.group(1): int(m.group(4)) * GRF_BYTES[arch]
                  for m in SPILL_LINE.finditer(log)}
        for k in read_zebin(zebin).kernels:
            if k.name in IGC_KERNELS:
                continue
            entry = res["kernels"].setdefault(k.name, {})
            entry[f"simd_{mode}"] = k.simd
            entry[f"spill_{mode}"] = spills.get(k.name, 0)
    res["compiled"] = True
    return res


def project_file(xpu_opt, path, level, arch, work, grf_mode):
    report = os.path.join(work, f"{os.path.basename(path)}.{grf_mode}.json")
    if os.path.exists(report):
        os.unlink(report)
    r, t = run([xpu_opt, path, "--xpu-codegen-pipeline="
                f"arch={arch} grf-mode={grf_mode} cache-dir=none "
                f"backend=ocloc xegpu-op-level={level} report={report}",
                "-o", os.devnull])
    modules = {}
    if os.path.exists(report):
        with open(report) as f:
            modules = {m["module"]: m for m in json.load(f)["modules"]}
    return modules, t, r


def project_row(module, small):
    """SIMD and decision of one auto report entry; per-kernel spill of the
    grf-mode=small report entry."""
    if module is None or "error" in module:
        return None
    kernels = {k["name"]: k for k in module["kernels"]
               if k["name"] not in IGC_KERNELS}
    small_kernels = ({k["name"]: k for k in small["kernels"]}
                     if small and "error" not in small else {})
    return {
        "simd": {n: k["simd"] for n, k in kernels.items()},
        "spill_small": {n: k["spill_size"] for n, k in small_kernels.items()},
        "grf_mode": module["grf_mode"],
        "n_regs": module["n_regs"],
        "spill": module["spill_size"],
        "builds": len(module.get("attempts", [])),
    }


def required_sizes(module_text):
    """Each kernel's own intel_reqd_sub_group_size, if it states one."""
    sizes = {}
    for m in re.finditer(r"(?:gpu\.func|llvm\.func spir_kernelcc) @([\w$.]+)"
                         r"\(.*?\)[^\n]*", module_text):
        r = re.search(r"intel_reqd_sub_group_size = (\d+)", m.group(0))
        if r:
            sizes[m.group(1)] = int(r.group(1))
    return sizes


def op_level(text):
    m = re.search(r"xegpu-op-level=(\w+)", text)
    return m.group(1) if m else "lane"


def parse_args():
    """The command line; returns (the parser, its arguments)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?")
    parser.add_argument("--arch", default="pvc")
    parser.add_argument("--suite", default=os.path.join(ROOT, "test",
                                                        "Parity"))
    parser.add_argument("--out", help="results file (default "
                        "BUILD_DIR/bench/parity/results.json)")
    parser.add_argument("--work", help="work directory (default "
                        "BUILD_DIR/bench/parity/work)")
    parser.add_argument("--list", action="store_true",
                        help="only list the files, their XeGPU level, "
                        "modules, kernels and required sizes as the "
                        "benchmark reads them")
    return parser, parser.parse_args()


def check_setup(parser, args):
    """Exits unless BUILD_DIR, the arch's GRF size, the Python package and
    the tools are there; returns (build dir, xpu-opt, read_zebin)."""
    if not args.build:
        parser.error("BUILD_DIR is required")
    if args.arch not in GRF_BYTES:
        sys.exit(f"bench.py: no GRF size known for {args.arch}")
    build = os.path.abspath(args.build)
    xpu_opt = os.path.join(build, "bin", "xpu-opt")
    sys.path.insert(0, os.path.join(build, "python_packages"))
    try:
        from xpu_codegen import read_zebin
    except ImportError as e:
        sys.exit(f"bench.py: the Python package is not built ({e})")
    for tool in (xpu_opt, MLIR_OPT):
        if not os.path.exists(tool):
            sys.exit(f"bench.py: {tool} not found")
    for tool in ("spirv-as", "ocloc"):
        if not shutil.which(tool):
            sys.exit(f"bench.py: {tool} not on PATH")
    return build, xpu_opt, read_zebin


def upstream_auto_seconds(up):
    """Upstream doing the builds auto does: small, and large only for a
    module whose small build spilled."""
    return sum(
        u["seconds"] - (0.0 if any(k.get("spill_small") for k in
                                   u["kernels"].values())
                        else u["ocloc_s"].get("large", 0.0))
        for u in up.values())


def bench_file(path, xpu_opt, arch, work, read_zebin):
    """One file of the suite through upstream (per module) and the project
    (auto, timed; small, not timed); returns (its files entry, its kernels'
    rows)."""
    with open(path) as f:
        text = f.read()
    level = op_level(text)
    base = os.path.splitext(os.path.basename(path))[0]
    fwork = os.path.join(work, base)
    os.makedirs(fwork)
    modules = split_modules(text)
    up = {name: upstream_module(name, mod, level, arch, fwork, read_zebin)
          for name, mod in modules.items()}
    proj, proj_s, r = project_file(xpu_opt, path, level, arch, fwork, "auto")
    # Per-kernel small-mode spill (auto keeps one build per module);
    # not timed.
    small, _, _ = project_file(xpu_opt, path, level, arch, fwork, "small")
    entry = {"file": base, "xegpu_op_level": level,
             "modules": len(modules), "path": path,
             "all_compiled": all(
                 u["compiled"] and (proj.get(n) or {}).get("kernels")
                 is not None and "error" not in proj[n]
                 for n, u in up.items()),
             "upstream_s": sum(u["seconds"] for u in up.values()),
             "upstream_auto_s": upstream_auto_seconds(up),
             "project_s": proj_s, "project_rc": r.returncode}
    return entry, kernel_rows(base, modules, up, proj, small)


def kernel_rows(base, modules, up, proj, small):
    """One row per kernel of a file: compiled by each side, errors, SIMD,
    small-mode spill and the project's decision."""
    rows = []
    for name, mod in modules.items():
        u = up[name]
        p = project_row(proj.get(name), small.get(name))
        required = required_sizes(mod)
        for kernel in kernels_of(mod):
            uk = u["kernels"].get(kernel, {})
            rows.append({
                "file": base, "module": name, "kernel": kernel,
                "required_simd": required.get(kernel),
                "upstream": u["compiled"], "upstream_error": u["error"],
                "project": p is not None,
                "project_error": (proj.get(name) or {}).get(
                    "error", None if p else "no report entry"),
                "simd_upstream": uk.get("simd_small"),
                "simd_upstream_large": uk.get("simd_large"),
                "simd_project": p["simd"].get(kernel) if p else None,
                "spill_small_upstream": uk.get("spill_small"),
                "spill_large_upstream": uk.get("spill_large"),
                "spill_small_project": (p["spill_small"].get(kernel)
                                        if p else None),
                "decision": (f"{p['grf_mode']} ({p['n_regs']}), spill "
                             f"{p['spill']}") if p else "-",
            })
    return rows


def main():
    parser, args = parse_args()
    if args.list:
        return list_suite(args.suite)
    build, xpu_opt, read_zebin = check_setup(parser, args)
    paths = sorted(glob.glob(os.path.join(args.suite, "*.mlir")))
    if not paths:
        parser.error(f"--suite {args.suite}: no *.mlir files to compare")
    outdir = os.path.join(build, "bench", "parity")
    work = args.work or os.path.join(outdir, "work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    rows, files = [], []
    for path in paths:
        entry, file_rows = bench_file(path, xpu_opt, args.arch, work,
                                      read_zebin)
        files.append(entry)
        rows.extend(file_rows)
    suite = run_suite(xpu_opt, files, args.arch, work)
    summary = print_table(rows, files, suite)
    out = args.out or os.path.join(outdir, "results.json")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"arch": args.arch, "rows": rows, "files": files,
                   "summary": summary}, f, indent=2)
    print(f"wrote {out}")


def list_suite(suite):
    for path in sorted(glob.glob(os.path.join(suite, "*.mlir"))):
        with open(path) as f:
            text = f.read()
        modules = split_modules(text)
        if len(modules) != len(re.findall(r"^\s*gpu\.module @", text,
                                          re.M)):
            sys.exit(f"bench.py: {path}: a gpu.module is not at two spaces "
                     "of indentation or not closed by '  }'")
        for name, mod in modules.items():
            required = required_sizes(mod)
            kernels = " ".join(
                k + (f"={required[k]}" if k in required else "")
                for k in kernels_of(mod))
            print(f"{os.path.basename(path)} {op_level(text)} {name}: "
                  f"{kernels}")


def run_suite(xpu_opt, files, arch, work):
    """The files every module of which both sides compile, all in one
    xpu-opt per XeGPU level (the project's workers and IGC start once)."""
    by_level = {}
    for f in files:
        if f["all_compiled"]:
            by_level.setdefault(f["xegpu_op_level"], []).append(f)
    seconds, upstream = 0.0, 0.0
    for level, group in sorted(by_level.items()):
        body = []
        for f in group:
            with open(f["path"]) as src:
                text = src.read()
            body.extend(l for l in text.splitlines(keepends=True)
                        if l.startswith("#"))
        body.append("module attributes {gpu.container_module} {\n")
        for f in group:
            with open(f["path"]) as src:
                for mod in split_modules(src.read()).values():
                    lines = mod.splitlines(keepends=True)
                    first = next(i for i, l in enumerate(lines)
                                 if l.startswith("  gpu.module"))
                    last = max(i for i, l in enumerate(lines)
                               if l.rstrip("\n") == "  }")
                    body.extend(lines[first:last + 1])
        body.append("}\n")
        path = os.path.join(work, f"suite-{level}.mlir")
        with open(path, "w") as out:
            out.write("".join(body))
        modules, t, r = project_file(xpu_opt, path, level, arch, work,
                                     "auto")
        if r.returncode != 0:
            sys.exit(f"bench.py: the {level} suite failed: "
                     f"{first_error(r.stderr)}")
        seconds += t
        upstream += sum(f["upstream_auto_s"] for f in group)
    return {"files": sum(len(g) for g in by_level.values()),
            "project_s": seconds, "upstream_auto_s": upstream}


def fmt(v):
    return "-" if v is None else str(v)


def print_kernel_rows(rows):
    """The table: one row per kernel."""
    head = ["kernel", "upstream", "project", "SIMD up/proj",
            "small spill up/proj (B)", "project decision"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        note = (f" (requires {r['required_simd']})"
                if r["required_simd"] else "")
        print("| " + " | ".join([
            f"`{r['file']}` {r['module']}::{r['kernel']}{note}",
            "yes" if r["upstream"] else "no",
            "yes" if r["project"] else "no",
            f"{fmt(r['simd_upstream'])}/{fmt(r['simd_project'])}",
            f"{fmt(r['spill_small_upstream'])}/"
            f"{fmt(r['spill_small_project'])}",
            r["decision"]]) + " |")


def compiled_by_both(rows):
    """The rows of the kernels both sides compiled."""
    return [r for r in rows if r["upstream"] and r["project"]]


def summarize(rows, files):
    """Counts over the kernels (compiled, by one side only, equal SIMD,
    required SIMD, spill not more) and the summed times."""
    both = compiled_by_both(rows)
    same_simd = [r for r in both if r["simd_upstream"] == r["simd_project"]]
    wanted = [r for r in rows if r["project"]
              and r["simd_project"] == (r["required_simd"] or 16)]
    not_more = [r for r in both if (r["spill_small_project"] or 0)
                <= (r["spill_small_upstream"] or 0)]
    return {
        "kernels": len(rows), "modules": len({(r["file"], r["module"])
                                              for r in rows}),
        "upstream_compiled": sum(r["upstream"] for r in rows),
        "project_compiled": sum(r["project"] for r in rows),
        "upstream_only": [f"{r['module']}::{r['kernel']}" for r in rows
                          if r["upstream"] and not r["project"]],
        "project_only": [f"{r['module']}::{r['kernel']}" for r in rows
                         if r["project"] and not r["upstream"]],
        "both": len(both), "equal_simd": len(same_simd),
        "project_simd_as_required": len(wanted),
        "project_spill_not_more": len(not_more),
        "upstream_s": sum(f["upstream_s"] for f in files),
        "upstream_auto_s": sum(f["upstream_auto_s"] for f in files),
        "project_s": sum(f["project_s"] for f in files),
    }


def print_counts(rows, s):
    """The counts of the summary `s` and the kernels whose SIMD differs."""
    n, up, pr = s["kernels"], s["upstream_compiled"], s["project_compiled"]
    print(f"\n{n} kernels in {s['modules']} modules: upstream compiled {up}, "
          f"project {pr}; upstream only: {len(s['upstream_only'])}, "
          f"project only: {len(s['project_only'])}")
    print(f"compiled by both: {s['both']}; equal SIMD {s['equal_simd']}; "
          f"project small-mode spill <= upstream "
          f"{s['project_spill_not_more']}")
    print(f"project SIMD = the kernel's required size (16 where it states "
          f"none): {s['project_simd_as_required']}/{pr}")
    for r in compiled_by_both(rows):
        if r["simd_upstream"] != r["simd_project"]:
            print(f"  SIMD differs: {r['module']}::{r['kernel']} upstream "
                  f"{r['simd_upstream']}, project {r['simd_project']}, "
                  f"required {r['required_simd'] or 'none (default 16)'}")


def print_failures(rows):
    """Each module that a side failed, once, with the first error."""
    seen = set()
    for r in rows:
        key = (r["file"], r["module"])
        if key in seen:
            continue
        seen.add(key)
        if not r["upstream"]:
            print(f"  upstream failed {r['module']}: {r['upstream_error']}")
        if not r["project"]:
            print(f"  project failed {r['module']}: "
                  f"{first_error(r['project_error'] or '')}")


def print_times(files, suite):
    """Times over the files whose every module both sides compile,
    printed; returns them."""
    clean = [f for f in files if f["all_compiled"]]
    t = {
        "files": len(clean),
        "project_s": sum(f["project_s"] for f in clean),
        "upstream_s": sum(f["upstream_s"] for f in clean),
        "upstream_auto_s": sum(f["upstream_auto_s"] for f in clean),
        "suite": suite,
    }
    print(f"time, the {t['files']} files whose every module both sides "
          f"compile: upstream (mlir-opt + spirv-as + ocloc, one process "
          f"each, per module) {t['upstream_s']:.2f} s with both GRF builds, "
          f"{t['upstream_auto_s']:.2f} s with the builds auto does (large "
          f"only after a small spill)")
    print(f"  project, one xpu-opt per file (grf-mode=auto, cold: no cache, "
          f"workers start per file): {t['project_s']:.2f} s = "
          f"{t['upstream_auto_s'] / t['project_s']:.2f}x upstream's speed")
    print(f"  project, one xpu-opt per XeGPU level for the same files: "
          f"{suite['project_s']:.2f} s = "
          f"{suite['upstream_auto_s'] / suite['project_s']:.2f}x")
    return t


def print_table(rows, files, suite):
    """Prints the kernel table, counts, failures and times; returns the
    summary (with its "time")."""
    print_kernel_rows(rows)
    summary = summarize(rows, files)
    print_counts(rows, summary)
    print_failures(rows)
    summary["time"] = print_times(files, suite)
    return summary

if __name__ == "__main__":
    main()
