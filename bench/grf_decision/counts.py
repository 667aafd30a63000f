#!/usr/bin/env python3
"""Register-count benchmark for Xe3 (ptl) and Xe3P (cri): the project's
`auto` against IGC's default build, IGC's auto flag, Triton's rule and the
best over every register count.

Kernels (--family): `mlir`, the family of gen_family.py (50 modules of one
kernel) and the project's examples (examples/*.mlir, one gpu.module each;
mixed_modes' two kernels lose their per-kernel GRF pins so that `auto`
decides their shared build); `cl`, the second family of gen_cl_family.py
(44 OpenCL C kernels through clang's SPIR-V backend: GEMM tiles in f32,
f16 and bf16, reductions), which the search was not designed on. Ground truth: each module's SPIR-V (xpu-emit-spirv) built by the
compiler's ocloc once per register count the device has (docs/Devices.md,
"Register counts": the mode flags for 128/256/512, `-ze-exp-register-file-
size N` for the others), once without a GRF flag (IGC's default) and once
with IGC's auto flag. A module's kernels share one build, so a module is
scored as `auto` scores it (docs/NativeCodegen.md): least spill (its
kernels' largest), then the most lanes in flight per engine (threads at a
kernel's count x its SIMD width; the kernel with the fewest), then the
fewest registers. Policies:

* project auto: `grf-mode=auto`, run for real (its builds from the report);
* IGC default: the build without a GRF flag (one build);
* IGC auto flag: `-cl-intel-enable-auto-large-GRF-mode` (one build);
* Triton: intel-xpu-backend-for-triton's rule since #7959 (2026-09-04,
  rolling driver; `make_zebin` in third_party/intel/backend/compiler.py and
  `load_binary` in driver.c): build without a GRF flag; when a kernel
  spills more than 16 dwords per lane (spill bytes // (4 x SIMD) > 16),
  build again with `-cl-intel-256-GRF-per-thread` (512 on cri, #7551) and
  keep that build (two builds);
* Triton, any spill: the same with the threshold at 0 bytes (#7615, the
  rule #7959 replaced, and the LTS driver's since #8115);
* best mode: the best of the GRF modes only (128, 256, 512 on cri);
* best count: the best over every count (the optimum).

No kernel here declares a work-group (known_block_size), so every count
can launch and Triton's num_warps <= 32 guard (#7623) lets it retry.

Threads per engine come from the build's device table (resident threads,
docs/Devices.md).

Usage: counts.py BUILD_DIR [--arch ptl] [--family mlir|cl]
                 [--compiler-root DIR] [--jobs N] [--kernels NAME,...]
                 [--per-kernel]
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))

ARCHS = ("ptl", "cri")
# Resident threads per vector engine at each count, by arch: the build's
# device table (load_threads).
THREADS = {}


def load_threads(build_dir, arch):
    """{registers: threads per engine} from the build's device table."""
    sys.path.insert(0, os.path.join(build_dir, "python_packages"))
    from xpu_codegen import _xpu_codegen
    info = _xpu_codegen.device_info(arch)
    return dict(zip(info["grf_counts"], info["threads_per_count"]))
MODE_FLAGS = {128: "-cl-intel-128-GRF-per-thread",
              256: "-cl-intel-256-GRF-per-thread",
              512: "-cl-intel-512-GRF-per-thread"}
IGC_AUTO = "igc-auto"
IGC_AUTO_FLAG = "-cl-intel-enable-auto-large-GRF-mode"
TRITON_RETRY = {"ptl": 256, "cri": 512}  # compiler.py: 512 on cri (#7551)
TRITON_SLOTS = 16  # #7959: rebuild above 16 dwords per lane


def flag_of(build_key):
    """The options of one ground-truth build ("" for IGC's default)."""
    if build_key is None:
        return ""
    if build_key == IGC_AUTO:
        return IGC_AUTO_FLAG
    return MODE_FLAGS.get(build_key,
                          f"-ze-exp-register-file-size {build_key}")


def decode_mlir_string(text):
    """The bytes of an MLIR string literal's body (\\XX and \\\\ escapes,
    llvm::printEscapedString)."""
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\\" and text[i + 1] == "\\":
            out.append(0x5C)
            i += 2
        elif text[i] == "\\":
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
        else:
            out += text[i].encode()
            i += 1
    return bytes(out)


def emit_spirv(xpu_opt, mlir, arch):
    """The SPIR-V of the one gpu.module in `mlir` (xpu-emit-spirv)."""
    attach = subprocess.run([xpu_opt, mlir, f"--xpu-attach-target=arch={arch}"],
                            capture_output=True, text=True, check=True)
    lowered = subprocess.run(
        [xpu_opt, "--pass-pipeline=builtin.module(gpu.module("
         "xpu-lower-to-xevm),xpu-emit-spirv)"], input=attach.stdout,
        capture_output=True, text=True, check=True)
    match = re.search(r'assembly = "((?:[^"\\]|\\\\|\\[0-9A-F]{2})*)"',
                      lowered.stdout)
    return decode_mlir_string(match.group(1))


def ocloc_command(root):
    lib = os.path.join(root, "usr", "lib", "x86_64-linux-gnu")
    ocloc = glob.glob(os.path.join(root, "usr", "bin", "ocloc-*"))[0]
    return [os.path.join(lib, "ld-linux-x86-64.so.2"), "--library-path", lib,
            ocloc]


def ze_info_text(binary):
    """The .ze_info section of a zebin, as text."""
    shoff, = struct.unpack_from("<Q", binary, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", binary, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", binary, shoff + i * shentsize)
               for i in range(shnum)]
    names = headers[shstrndx][4]
    for name, _, _, _, offset, size in headers:
        end = binary.index(b"\0", names + name)
        if binary[names + name:end] == b".ze_info":
            return binary[offset:offset + size].decode("latin-1")
    raise ValueError("zebin without .ze_info")


def kernel_builds(binary, kernels):
    """{kernel: (grf_count, simd, spill bytes)} for `kernels` in a zebin."""
    out = {}
    # kernels_misc_info lists the kernels again, without their figures.
    text = ze_info_text(binary).split("\nkernels_misc_info:")[0]
    for entry in re.split(r"\n  - name: +", text)[1:]:
        name = entry.split("\n", 1)[0].strip()

        def field(key, default=None):
            match = re.search(key + r": +(\d+)", entry)
            return int(match.group(1)) if match else default
        if name in kernels:
            out[name] = (field("grf_count"), field("simd_size"),
                         field("spill_size", 0))
    if set(out) != set(kernels):
        raise ValueError(f"zebin has kernels {sorted(out)}, not {kernels}")
    return out


def build(ocloc, spirv_path, arch, build_key, kernels, workdir):
    """One ocloc build of a module; its kernels' (grf, simd, spill), or
    None when ocloc fails (say, out of scratch space)."""
    tag = f"{os.path.basename(spirv_path)}.{build_key or 'default'}"
    out = os.path.join(workdir, tag)
    cmd = ocloc + ["compile", "-spirv_input", "-file", spirv_path, "-device",
                   arch, "-output", out, "-q"]
    if build_key is not None:
        cmd += ["-options", flag_of(build_key)]
    if subprocess.run(cmd, capture_output=True).returncode != 0:
        return None
    with open(glob.glob(out + "*")[0], "rb") as f:
        return kernel_builds(f.read(), kernels)


def threads(arch, registers):
    """Threads per engine at `registers` (IGC may report a count between
    two of the table's: it runs with the next one up)."""
    return THREADS[arch][min(c for c in THREADS[arch] if c >= registers)]


def score(arch, measured):
    """A module build's (spill, -lanes, registers), smaller is better, as
    `auto` ranks it: its kernels' largest spill, fewest lanes, most
    registers."""
    return (max(s for _, _, s in measured.values()),
            -min(threads(arch, g) * simd for g, simd, _ in measured.values()),
            max(g for g, _, _ in measured.values()))


def read_cl_units(workdir, wanted):
    """gen_cl_family.py's modules: [{name, set, spirv, kernels}]."""
    cmd = [sys.executable, os.path.join(HERE, "gen_cl_family.py"), workdir]
    if wanted:
        cmd += ["--only", ",".join(sorted(wanted))]
    subprocess.run(cmd, check=True)
    with open(os.path.join(workdir, "family.json")) as f:
        return [{"name": e["name"], "set": "family", "kernels": [e["name"]],
                 "spirv": os.path.join(workdir, e["name"] + ".spv")}
                for e in json.load(f)]


def read_units(workdir, wanted):
    """The modules benchmarked: [{name, set, mlir, kernels}]."""
    subprocess.run([sys.executable, os.path.join(HERE, "gen_family.py"),
                    "--output", os.path.join(workdir, "family.mlir"),
                    "--manifest", os.path.join(workdir, "family.json"),
                    "--split-dir", workdir], check=True)
    with open(os.path.join(workdir, "family.json")) as f:
        units = [{"name": e["name"], "set": "family", "kernels": ["k"],
                  "mlir": os.path.join(workdir, e["name"] + ".mlir")}
                 for e in json.load(f)]
    for path in sorted(glob.glob(os.path.join(SOURCE, "examples", "*.mlir"))):
        with open(path) as f:
            # The per-kernel pins would split mixed_modes' module and force
            # its modes: without them `auto` decides the module.
            text = re.sub(r"\s*attributes \{xpu.grf_mode = "
                          r"#xpu.grf_mode<\w+>\}", "", f.read())
        modules = re.findall(r"gpu\.module @(\w+)", text)
        if len(modules) != 1:
            sys.exit(f"{path}: expected one gpu.module, found {modules}")
        mlir = os.path.join(workdir, "example." + os.path.basename(path))
        with open(mlir, "w") as f:
            f.write(text)
        units.append({"name": modules[0], "set": "examples", "mlir": mlir,
                      "kernels": re.findall(r"gpu\.func @(\w+)\([^)]*\) "
                                            r"kernel", text)})
    if wanted:
        units = [u for u in units if u["name"] in wanted
                 or wanted & set(u["kernels"]) and u["set"] == "examples"]
    return units


def run_auto(args, unit):
    """`grf-mode=auto` on a module, for real: its report's module entry
    (xpu-opt's pipeline for MLIR, the Python CLI for SPIR-V)."""
    arch, root, workdir = args.arch, args.root, args.workdir
    report = os.path.join(workdir, unit["name"] + ".auto.json")
    if "spirv" in unit:
        env = dict(os.environ, PYTHONPATH=os.path.join(args.build_dir,
                                                       "python_packages"))
        subprocess.run([sys.executable, "-m", "xpu_codegen", "compile",
                        unit["spirv"], "--arch", arch, "--grf-mode", "auto",
                        "--backend", "ocloc", "--cache-dir", "none",
                        "--jobs", "1", "--compiler-root", root, "-q",
                        "-o", os.path.join(workdir, unit["name"] + ".zebin"),
                        "--report", report], env=env, capture_output=True,
                       check=True)
    else:
        subprocess.run([args.xpu_opt, unit["mlir"], "-o", os.devnull,
                        f"--xpu-codegen-pipeline=arch={arch} grf-mode=auto "
                        f"cache-dir=none backend=ocloc jobs=1 "
                        f"compiler-root={root} report={report}"],
                       capture_output=True, check=True)
    with open(report) as f:
        (module,) = json.load(f)["modules"]
    if "error" in module:
        sys.exit(f"auto failed on {unit['name']}: {module['error']}")
    return module


def measure_unit(args, unit):
    """Every ground-truth build of `unit`, and `auto`'s result."""
    arch, workdir = args.arch, args.workdir
    spirv = unit.get("spirv")
    if not spirv:
        spirv = os.path.join(workdir, unit["name"] + ".spv")
        with open(spirv, "wb") as f:
            f.write(emit_spirv(args.xpu_opt, unit["mlir"], arch))
    keys = [None, IGC_AUTO] + sorted(THREADS[arch])
    builds = {k: build(args.ocloc, spirv, arch, k, unit["kernels"], workdir)
              for k in keys}
    module = run_auto(args, unit)
    auto = {k["name"]: (k["grf_count"], k["simd"], k["spill_size"])
            for k in module["kernels"]}
    return builds, auto, module


def policies(arch, builds, auto, auto_builds):
    """{policy: (kernels' (grf, simd, spill), builds made)} for one module.
    Ground-truth builds that failed are skipped (Triton keeps its first
    build when the retry fails, as driver.c and compiler.py do)."""
    counts = sorted(THREADS[arch])
    built = {c: builds[c] for c in counts if builds[c]}
    # The optimum over every build auto may keep: each count with its flag,
    # and IGC's own build without one (sometimes better than the explicit
    # build at its count).
    best = min(list(built.values()) + [builds[None]],
               key=lambda m: score(arch, m))
    modes = [builds[c] for c in counts if c in MODE_FLAGS and builds[c]]
    default = builds[None]

    def triton(retries):
        over = any(retries(spill, simd) for _, simd, spill in default.values())
        retry = builds[TRITON_RETRY[arch]] if over else None
        return (retry or default, 2 if over else 1)
    return {
        "project auto": (auto, auto_builds),
        "IGC default (no flag)": (default, 1),
        "IGC auto flag": (builds[IGC_AUTO], 1),
        f"Triton (retry > {TRITON_SLOTS} dwords/lane)": triton(
            lambda spill, simd: spill // (4 * simd) > TRITON_SLOTS),
        "Triton LTS (retry on any spill)": triton(
            lambda spill, simd: spill > 0),
        "best of the modes": (min(modes, key=lambda m: score(arch, m)),
                              len([c for c in counts if c in MODE_FLAGS])),
        "best over all counts": (best, len(counts) + 1),
    }


def fraction(rows, test):
    """"n/N (family a/b, examples c/d)" over kernels."""
    parts = []
    for group in ("family", "examples"):
        sub = [r for r in rows if r["set"] == group]
        if sub:
            parts.append(f"{group} {sum(map(test, sub))}/{len(sub)}")
    return f"{sum(map(test, rows))}/{len(rows)} ({', '.join(parts)})"


def per_module(rows, policy):
    """Builds per module: a module's kernels share its builds."""
    modules = {r["module"]: r[policy]["builds"] for r in rows}
    return sum(modules.values()) / len(modules)


def summarize(rows, names):
    """The Markdown table: one line per policy, over every kernel."""
    lines = ["| policy | optimal (spill, lanes) | worse than IGC default | "
             "builds/module | total spill (bytes) | mean lanes | "
             "mean grf_count |", "|---|---|---|---|---|---|---|"]
    n = len(rows)
    for name in names:
        optimal = fraction(rows, lambda r: r[name]["module"][:2]
                           == r["best over all counts"]["module"][:2])
        worse = fraction(rows, lambda r: r[name]["module"][:2]
                         > r["IGC default (no flag)"]["module"][:2])
        builds = per_module(rows, name)
        spill = sum(r[name]["spill"] for r in rows)
        lanes = sum(r[name]["lanes"] for r in rows) / n
        grf = sum(r[name]["grf"] for r in rows) / n
        lines.append(f"| {name} | {optimal} | {worse} | {builds:.2f} | "
                     f"{spill} | {lanes:.1f} | {grf:.1f} |")
    return lines


def kernel_rows(arch, unit, results):
    """One row per kernel of `unit`: each policy's kernel figures and its
    module's score and builds (builds are the module's, shared by its
    kernels)."""
    rows = []
    for kernel in unit["kernels"]:
        row = {"name": kernel if unit["set"] == "examples" else unit["name"],
               "module": unit["name"], "set": unit["set"],
               "module_kernels": unit["kernels"]}
        for policy, (measured, builds) in results.items():
            grf, simd, spill = measured[kernel]
            row[policy] = {"grf": grf, "simd": simd, "spill": spill,
                           "lanes": threads(arch, grf) * simd,
                           "builds": builds,
                           "module": list(score(arch, measured))}
        rows.append(row)
    return rows


def per_kernel_table(rows, names):
    """Per kernel: each policy's "spill/lanes/grf_count (builds)"."""
    lines = ["| kernel | " + " | ".join(names) + " |",
             "|---" * (len(names) + 1) + "|"]
    for r in rows:
        cells = [f"{r[p]['spill']}/{r[p]['lanes']}/{r[p]['grf']} "
                 f"({r[p]['builds']})" for p in names]
        lines.append(f"| {r['name']} | " + " | ".join(cells) + " |")
    return lines


def done_means(rows):
    """The issue's thresholds for `auto` on these kernels."""
    n = len(rows)
    auto, best = "project auto", "best over all counts"
    default = "IGC default (no flag)"
    optimal = sum(r[auto]["module"][:2] == r[best]["module"][:2]
                  for r in rows)
    worse = sum(r[auto]["module"][:2] > r[default]["module"][:2]
                for r in rows)
    builds = per_module(rows, auto)
    per_kernel = sum(r[auto]["builds"] / len(r["module_kernels"])
                     for r in rows) / n
    verdict = {True: "met", False: "**missed**"}
    return [f"auto optimal on {optimal}/{n} = {100 * optimal / n:.1f}% "
            f"(>= 98%: {verdict[optimal >= 0.98 * n]}); worse than IGC "
            f"default on {worse} (none: {verdict[worse == 0]}); "
            f"{builds:.2f} builds per module, {per_kernel:.2f} per kernel "
            f"(<= 1.6: {verdict[per_kernel <= 1.6]})"]


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir")
    parser.add_argument("--arch", default="ptl", choices=ARCHS)
    parser.add_argument("--family", default="mlir", choices=("mlir", "cl"),
                        help="gen_family.py and the examples, or "
                             "gen_cl_family.py")
    parser.add_argument("--compiler-root",
                        default=os.path.join(SOURCE, ".compilers",
                                             "igc-2.40"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--kernels", default="",
                        help="only these family modules or example kernels "
                             "(comma-separated; an example kernel brings "
                             "its module)")
    parser.add_argument("--per-kernel", action="store_true",
                        help="also print every kernel's figures")
    args = parser.parse_args()
    args.root = os.path.abspath(args.compiler_root)
    args.xpu_opt = os.path.join(args.build_dir, "bin", "xpu-opt")
    args.ocloc = ocloc_command(args.root)
    args.workdir = tempfile.mkdtemp(prefix=f"grf-counts-{args.arch}-")
    THREADS[args.arch] = load_threads(args.build_dir, args.arch)
    return args


def main():
    args = parse_args()
    arch = args.arch
    wanted = set(filter(None, args.kernels.split(",")))
    units = (read_cl_units(args.workdir, wanted) if args.family == "cl"
             else read_units(args.workdir, wanted))
    if not units:
        sys.exit(f"no kernel named {sorted(wanted)}")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        measured = list(pool.map(lambda u: measure_unit(args, u), units))
    rows = []
    for unit, (builds, auto, module) in zip(units, measured):
        results = policies(arch, builds, auto, len(module["attempts"]))
        rows += kernel_rows(arch, unit, results)
    names = list(results)
    n_family = sum(r["set"] == "family" for r in rows)
    print(f"register-count benchmark: arch={arch}, compiler="
          f"{module['compiler']} ({os.path.basename(args.root)}), "
          f"{len(rows)} kernels ({n_family} of "
          f"{'gen_cl_family.py' if args.family == 'cl' else 'gen_family.py'}"
          f", {len(rows) - n_family} of examples/), counts "
          f"{sorted(THREADS[arch])}")
    print("\n".join(summarize(rows, names)))
    print("\n".join(done_means(rows)))
    if args.per_kernel:
        print("\n".join(per_kernel_table(rows, names)))
    for r in rows:
        if r["project auto"]["module"][:2] != \
                r["best over all counts"]["module"][:2]:
            print(f"auto missed {r['name']}: {r['project auto']}, best "
                  f"{r['best over all counts']}, IGC default "
                  f"{r['IGC default (no flag)']}")
    path = os.path.join(args.workdir, "rows.json")
    with open(path, "w") as f:
        json.dump(rows, f, indent=1)
    print(f"JSON: {path}")


if __name__ == "__main__":
    main()
