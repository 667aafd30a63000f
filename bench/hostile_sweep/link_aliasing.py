"""Hostile sweep dimension (issue 26 item 3): names that alias under
linking.

Each trial draws module, kernel and host-function names from a small
alphabet (so kernels are named like their module, like other modules, like
host functions, modules are named like linked modules, ...) and launches
every kernel from the host. Two checks:

- Through the real IGC (IGC 1.0.12504 and IGC 2.40 by turns), compiled with
  link on (the default) and off: both must succeed, every launch must name
  a binary of the output and, through the binary's `xpu.linked` record, the
  very kernel it launched with link off; every module must be reported
  with the same facts (module, kernels, GRF mode, registers, spill).
- Without IGC, one random kernel made unlowerable (an unregistered op):
  xpu-link-modules, lowering with keep-going and xpu-unlink-failed-modules
  must leave every launch naming its original module and kernel, or a
  linked module whose record maps it back to them.

  ok     every launch reaches its kernel, reports agree
  wrong  a launch names a missing or another kernel, or reports differ
  clean  a run failed with a located error (exit status 1)
"""

import sys
import json
import random
import re
import subprocess
from pathlib import Path

from sweep import crashed, env_for, new_counts

LABEL = "link aliasing: module/kernel/host names from a small alphabet, " \
        "link on vs off and unlinking after a failure"

ALPHABET = ["a", "b", "k", "add", "host", "xpu_linked", "xpu_linked_0"]
TIMEOUT = 300
LAUNCH = re.compile(r"gpu\.launch_func\s+@(\w+)::@(\w+)")
BINARY = re.compile(r"^\s*gpu\.(?:binary|module) @(\w+)(.*)$", re.M)
RECORD = re.compile(r'kernels = \{([^}]*)\}, module = "(\w+)"')
PAIR = re.compile(r'(\w+) = "(\w+)"')
UNLINK = ("builtin.module(xpu-attach-target{arch=pvc},"
          "xpu-link-modules{check-lowering=false},"
          "gpu.module(xpu-lower-to-xevm{keep-going=true}),"
          "xpu-unlink-failed-modules)")


def make_program(rng, poison=None):
    """(text, [(module, kernel)] in launch order)."""
    names = rng.sample(ALPHABET, rng.randrange(2, 5))
    modules = []
    factor = 1
    for name in names:
        kernels = rng.sample(ALPHABET, rng.randrange(1, 3))
        modules.append((name, [(k, factor + i) for i, k in enumerate(kernels)]))
        factor += len(kernels)
    # At most four of seven names are modules: three are left for these.
    host, helper = rng.sample([n for n in ALPHABET if n not in names], 2)
    launches = [(m, k) for m, ks in modules for k, _ in ks]
    rng.shuffle(launches)
    text = ["module attributes {gpu.container_module} {"]
    for name, kernels in modules:
        text.append(f"  gpu.module @{name} {{")
        for kernel, value in kernels:
            bad = '      "vendor.sync"(%w) : (f32) -> ()\n' \
                if poison == (name, kernel) else ""
            text.append(f"""    gpu.func @{kernel}(%buf: memref<64xf32>) kernel {{
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %c = arith.constant {value}.0 : f32
      %w = arith.mulf %v, %c : f32
{bad}      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }}""")
        text.append("  }")
    # A host function named like nothing on the device, called by the host.
    text.append(f"  func.func @{helper}() {{\n    return\n  }}")
    text.append(f"  func.func @{host}(%a: memref<64xf32>) {{")
    text.append("    %c1 = arith.constant 1 : index")
    text.append(f"    func.call @{helper}() : () -> ()")
    for m, k in launches:
        text.append(f"    gpu.launch_func @{m}::@{k} blocks in (%c1, %c1, %c1)"
                    f" threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)")
    text.append("    return\n  }\n}\n")
    return "\n".join(text), launches, modules


def resolve(output, launches):
    """None if each launch of `output` reaches the kernel of `launches` (in
    order), else what does not."""
    symbols = {}
    for name, rest in BINARY.findall(output):
        records = {module: dict(PAIR.findall(kernels))
                   for kernels, module in RECORD.findall(rest)}
        symbols[name] = records
    got = LAUNCH.findall(output)
    if len(got) != len(launches):
        return f"{len(got)} launches instead of {len(launches)}"
    for (binary, kernel), (module, original) in zip(got, launches):
        if binary not in symbols:
            return f"@{module}::@{original} became @{binary}::@{kernel}: " \
                   "no such binary"
        records = symbols[binary]
        if records:
            if records.get(module, {}).get(original) != kernel:
                return f"@{module}::@{original} became @{binary}::@{kernel}"
        elif (binary, kernel) != (module, original):
            return f"@{module}::@{original} became @{binary}::@{kernel}"
    return None


def facts(report):
    entries = json.loads(Path(report).read_text())["modules"]
    return sorted((e["module"], e.get("grf_mode"), e.get("n_regs"),
                   e.get("spill_size"),
                   tuple(sorted(k.get("name") for k in e.get("kernels", []))))
                  for e in entries)


def run(cmd, env):
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=TIMEOUT, env=env)


def check_pipeline(xpu_opt, rng, folder, env, compiler):
    text, launches, _ = make_program(rng)
    source = folder / "program.mlir"
    source.write_text(text)
    results = {}
    for link in ("false", "true"):
        report = folder / f"link-{link}.json"
        proc = run([xpu_opt, str(source), "--xpu-codegen-pipeline="
                    f"arch=pvc cache-dir=none link={link} report={report}"
                    f"{compiler}"], env)
        if proc.returncode != 0:
            return proc
        results[link] = (proc.stdout, facts(report))
    for link, (output, _) in results.items():
        problem = resolve(output, launches)
        if problem:
            return f"link={link}: {problem}"
    if results["false"][1] != results["true"][1]:
        return f"reports differ: {results['false'][1]} != {results['true'][1]}"
    return None


def check_unlink(xpu_opt, rng, folder, env):
    # A program, then the same program with one kernel made unlowerable.
    seed = rng.random()
    _, _, modules = make_program(random.Random(seed))
    module, kernels = rng.choice(modules)
    text, launches, _ = make_program(random.Random(seed),
                                     (module, kernels[0][0]))
    source = folder / "unlink.mlir"
    source.write_text(text)
    proc = run([xpu_opt, str(source), "-allow-unregistered-dialect",
                f"--pass-pipeline={UNLINK}"], env)
    if proc.returncode != 0:
        return proc
    problem = resolve(proc.stdout, launches)
    return f"after unlinking: {problem}" if problem else None


def sweep(build: Path, count: int, rng: random.Random, work: Path) -> dict:
    counts = new_counts()
    xpu_opt = str(build / "bin" / "xpu-opt")
    env = env_for(build)
    igc2 = Path(__file__).resolve().parents[2] / ".compilers" / "igc-2.40"
    for trial in range(count):
        folder = work / f"aliasing{trial}"
        folder.mkdir(parents=True)
        compiler = f" compiler-root={igc2}" if trial % 2 else ""
        counts["tried"] += 1
        try:
            problem = check_unlink(xpu_opt, rng, folder, env) or \
                check_pipeline(xpu_opt, rng, folder, env, compiler)
        except subprocess.TimeoutExpired:
            counts["hung"] += 1
            continue
        if isinstance(problem, subprocess.CompletedProcess):
            bad = crashed(problem)
            # A launch of a kernel that is not there is the defect itself.
            wrong = "is undefined" in problem.stderr
            counts["crashed" if bad else "wrong" if wrong else "clean"] += 1
            if bad or wrong:
                print("CRASH" if bad else "WRONG", problem.stderr[-400:])
        elif problem:
            counts["wrong"] += 1
            print("WRONG", problem[:600])
        else:
            counts["ok"] += 1
    return counts


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], 30)
