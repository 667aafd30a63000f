"""Hostile sweep dimension (issue 26 item 1): IR printing flags must not
reach cache digests or dedupe keys.

Each trial writes gpu.modules that differ only in their constants (some
exact copies, which must fold), picks random `--mlir-print-*` /
`--mlir-elide-*` flags with random values, and runs xpu-dedupe-modules and
xpu-module-cache under them. Results are written as bytecode (which the
flags do not change) and read back without flags: what folds and every
module's digest must equal the flag-free run, and the folds must be
exactly the copies. Every eighth trial also compiles each module (all named
@m, in files of their own) through the real IGC under the flags, sharing one
cache: each output must be the module's own flag-free, cache-less binary.

  ok     every key, fold and binary as without flags
  wrong  a flag changed a key or a fold, or a module got another's binary
  clean  xpu-opt refused the flags with an error (exit status 1)
"""

import sys
import random
import re
import subprocess
from pathlib import Path

from sweep import crashed, env_for, new_counts

LABEL = "printing flags: modules differing only in constants, " \
        "keys/folds/binaries under random --mlir-print-*/--mlir-elide-*"

SWITCHES = ["--mlir-print-debuginfo", "--mlir-pretty-debuginfo",
            "--mlir-print-op-generic", "--mlir-print-local-scope",
            "--mlir-print-value-users", "--mlir-print-unique-ssa-ids",
            "--mlir-print-skip-regions", "--mlir-use-nameloc-as-prefix",
            "--mlir-print-assume-verified"]
LIMITS = ["--mlir-elide-elementsattrs-if-larger",
          "--mlir-elide-resource-strings-if-larger",
          "--mlir-print-elementsattrs-with-hex-if-larger"]
DEDUPE = "builtin.module(xpu-attach-target{arch=pvc},xpu-dedupe-modules)"
MODULE = re.compile(r"^  gpu\.module @(\w+)(.*)$", re.M)
TIMEOUT = 300


def random_flags(rng):
    flags = rng.sample(SWITCHES, rng.randrange(0, 4))
    for name in rng.sample(LIMITS, rng.randrange(1, 3)):
        flags.append(f"{name}={rng.choice([0, 1, 2, 4, 15, 16, 100])}")
    rng.shuffle(flags)
    return flags


def module_text(name, values, named):
    """A gpu.module adding the constant `values` to a buffer."""
    n = len(values)
    dense = ", ".join(f"{v:.1f}" for v in values)
    loc = (lambda s: f' loc("{s}")') if named else (lambda s: "")
    return f"""  gpu.module @{name} {{
    gpu.func @k(%buf: memref<?xf32>) kernel {{
      %c0 = arith.constant 0 : index{loc("zero")}
      %z = arith.constant dense<[{dense}]> : vector<{n}xf32>{loc("z")}
      %x = vector.load %buf[%c0] : memref<?xf32>, vector<{n}xf32>{loc("x")}
      %y = arith.addf %x, %z : vector<{n}xf32>{loc("y")}
      vector.store %y, %buf[%c0] : memref<?xf32>, vector<{n}xf32>
      gpu.return
    }}
  }}
"""


def make_modules(rng, compiled):
    """[(values, named)]: variants of one constant, some repeated. LLVM's
    SPIR-V backend cannot legalize the 64-element vectors of longer ones:
    modules that are compiled stay at 16."""
    n = rng.choice([2, 4, 8, 16] + ([] if compiled else [32, 64, 128]))
    base = [float(rng.randrange(100)) for _ in range(n)]
    variants = []
    for _ in range(rng.randrange(2, 5)):
        if variants and rng.random() < 0.3:
            values = rng.choice(variants)[0]
        else:
            values = list(base)
            values[rng.randrange(n)] = float(rng.randrange(100, 10000))
        variants.append((values, rng.random() < 0.3))
    return variants


def wrap(body):
    return "module attributes {gpu.container_module} {\n" + body + "}\n"


def run_keys(xpu_opt, source, pipeline, flags, work, env):
    """(returncode, {module: its line}) of `pipeline` under `flags`, read
    back without them."""
    out = work / "out.mlirbc"
    proc = subprocess.run(
        [xpu_opt, str(source), *flags, f"--pass-pipeline={pipeline}",
         "--emit-bytecode", "-o", str(out)],
        capture_output=True, text=True, timeout=TIMEOUT, env=env)
    if proc.returncode != 0:
        return proc, None
    text = subprocess.run([xpu_opt, str(out)], capture_output=True,
                          text=True, timeout=TIMEOUT, env=env).stdout
    return proc, dict(MODULE.findall(text))


def observe(xpu_opt, source, flags, work, env):
    cache = f"builtin.module(xpu-attach-target{{arch=pvc}}," \
            f"xpu-module-cache{{cache-dir={work / 'keys-cache'}}})"
    seen = []
    for pipeline, pattern in ((DEDUPE, r"xpu\.duplicates = (\[[^\]]*\])"),
                              (cache, r'xpu\.module_cache_key = "(\w+)"')):
        proc, modules = run_keys(xpu_opt, source, pipeline, flags, work, env)
        if modules is None:
            return proc, None
        seen.append({name: (re.search(pattern, rest) or [None, ""])[1]
                     for name, rest in modules.items()})
    return None, seen


def expected_folds(variants):
    folds = {}
    first = {}
    for i, (values, _) in enumerate(variants):
        key = tuple(values)
        if key in first:
            folds.setdefault(first[key], []).append(f"m{i}")
        else:
            first[key] = f"m{i}"
    return {kept: "[" + ", ".join(f'"{d}"' for d in dups) + "]"
            for kept, dups in folds.items()}


def compile_each(xpu_opt, variants, flags, work, env, compiler):
    """Whether each module, compiled alone under `flags` with a shared
    cache, gets its own flag-free binary."""
    cache = work / "cache"
    for i, (values, named) in enumerate(variants):
        source = work / f"single{i}.mlir"
        source.write_text(wrap(module_text("m", values, named)))
        ref = subprocess.run(
            [xpu_opt, str(source), "--xpu-codegen-pipeline="
             f"arch=pvc cache-dir=none{compiler}"],
            capture_output=True, text=True, timeout=TIMEOUT, env=env)
        # Written as bytecode and printed without the flags (which would
        # skip or elide what is compared).
        out = work / f"single{i}.mlirbc"
        got = subprocess.run(
            [xpu_opt, str(source), *flags, "--xpu-codegen-pipeline="
             f"arch=pvc cache-dir={cache}{compiler}", "--emit-bytecode",
             "-o", str(out)],
            capture_output=True, text=True, timeout=TIMEOUT, env=env)
        for proc in (ref, got):
            if proc.returncode != 0:
                return proc
        got = subprocess.run([xpu_opt, str(out)], capture_output=True,
                             text=True, timeout=TIMEOUT, env=env)
        binary = re.compile(r'bin = "([^"]*)"')
        if binary.findall(ref.stdout) != binary.findall(got.stdout):
            return f"module {i} ({values[:4]}...) got another binary"
    return None


def sweep(build: Path, count: int, rng: random.Random, work: Path) -> dict:
    counts = new_counts()
    xpu_opt = str(build / "bin" / "xpu-opt")
    env = env_for(build)
    igc2 = Path(__file__).resolve().parents[2] / ".compilers" / "igc-2.40"
    for trial in range(count):
        folder = work / f"printing{trial}"
        folder.mkdir(parents=True)
        variants = make_modules(rng, compiled=trial % 8 == 0)
        source = folder / "modules.mlir"
        source.write_text(wrap("".join(
            module_text(f"m{i}", values, named)
            for i, (values, named) in enumerate(variants))))
        flags = random_flags(rng)
        counts["tried"] += 1
        try:
            _, reference = observe(xpu_opt, source, [], folder, env)
            failed, seen = observe(xpu_opt, source, flags, folder, env)
            if failed is not None:
                bad = crashed(failed)
                counts["crashed" if bad else "clean"] += 1
                print("CRASH" if bad else "CLEAN", flags,
                      failed.stderr[-400:])
                continue
            problem = None
            folds = {k: v for k, v in seen[0].items() if v}
            if seen != reference:
                problem = f"keys or folds changed: {seen} != {reference}"
            elif folds != expected_folds(variants):
                problem = f"folds {folds} != {expected_folds(variants)}"
            elif trial % 8 == 0:
                compiler = f" compiler-root={igc2}" if trial % 16 else ""
                problem = compile_each(xpu_opt, variants, flags, folder, env,
                                       compiler)
                if isinstance(problem, subprocess.CompletedProcess):
                    bad = crashed(problem)
                    counts["crashed" if bad else "clean"] += 1
                    print("CRASH" if bad else "CLEAN", flags,
                          problem.stderr[-400:])
                    continue
        except subprocess.TimeoutExpired:
            counts["hung"] += 1
            continue
        if problem:
            counts["wrong"] += 1
            print("WRONG", flags, problem[:600])
        else:
            counts["ok"] += 1
    return counts


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], 40)
