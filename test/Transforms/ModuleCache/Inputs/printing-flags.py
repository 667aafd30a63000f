"""Runs xpu-dedupe-modules and xpu-module-cache on INPUT under every IR
printing flag xpu-opt has (`--mlir-print-*`, `--mlir-elide-*`,
`--mlir-pretty-*`, `--mlir-use-nameloc-as-prefix`, as listed by
--help-hidden: a flag upstream adds later is tried too), one at a time and
all at once, and checks that no flag changes a module's digest or what is
folded: keys come from a canonical form no printing flag reaches. Each run
writes bytecode, which the flags do not change, and is read back without
flags.

Usage: printing-flags.py XPU_OPT INPUT WORKDIR
Prints one line per flag and a summary; "WRONG" lines name what differed.
"""

import re
import subprocess
import sys
from pathlib import Path

FLAG = re.compile(
    r"^\s+(--mlir-(?:print|elide|pretty|use-nameloc)[\w-]*)(?:=<([\w-]+)>)?",
    re.M)
# Flags that only act together with another one.
COMPANIONS = {
    "--mlir-print-ir-after-change": ["--mlir-print-ir-after-all"],
    "--mlir-print-ir-after-failure": ["--mlir-print-ir-after-all"],
    "--mlir-print-ir-module-scope": ["--mlir-print-ir-after-all",
                                     "--mlir-disable-threading"],
    "--mlir-print-ir-tree-dir": ["--mlir-print-ir-after-all"],
}
DEDUPE = "builtin.module(xpu-attach-target{arch=pvc},xpu-dedupe-modules)"
MODULE = re.compile(r"^  gpu\.module @(\w+)(.*)$", re.M)


def list_flags(xpu_opt, work):
    """Each printing flag with a value that makes it act hardest."""
    help_text = subprocess.run([xpu_opt, "--help-hidden"], check=True,
                               capture_output=True, text=True).stdout
    flags = {}
    for name, kind in FLAG.findall(help_text):
        if not kind:
            flags[name] = name
        elif kind in ("uint", "long", "int"):
            flags[name] = f"{name}=1"
        elif kind == "pass-arg":
            flags[name] = f"{name}=xpu-dedupe-modules"
        elif kind == "string":
            flags[name] = f"{name}={work / 'ir-tree'}"
        else:
            sys.exit(f"no value for {name}=<{kind}>: teach printing-flags.py")
    return flags


def run(xpu_opt, source, pipeline, flags, work):
    """{module: rest of its line} of the output of `pipeline` under
    `flags`, printed without them."""
    bytecode = work / "out.mlirbc"
    proc = subprocess.run(
        [xpu_opt, source, *flags, f"--pass-pipeline={pipeline}",
         "--emit-bytecode", "-o", str(bytecode)],
        capture_output=True, text=True)
    if proc.returncode != 0:
        return f"rc {proc.returncode}: {proc.stderr[-400:]}"
    text = subprocess.run([xpu_opt, str(bytecode)], check=True,
                          capture_output=True, text=True).stdout
    return {name: rest for name, rest in MODULE.findall(text)}


def keys(modules, pattern):
    """{module: what `pattern` captures on its line}."""
    if isinstance(modules, str):
        return modules
    return {name: (re.search(pattern, rest) or [None, ""])[1]
            for name, rest in modules.items()}


def main():
    xpu_opt, source, work = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    cache = f"builtin.module(xpu-attach-target{{arch=pvc}}," \
            f"xpu-module-cache{{cache-dir={work / 'cache'}}})"
    flags = list_flags(xpu_opt, work)

    def observe(extra):
        return (keys(run(xpu_opt, source, DEDUPE, extra, work),
                     r"xpu\.duplicates = (\[[^\]]*\])"),
                keys(run(xpu_opt, source, cache, extra, work),
                     r'xpu\.module_cache_key = "(\w+)"'))

    reference = observe([])
    folded, digests = reference
    print("reference: folded", sorted((k, v) for k, v in folded.items() if v))
    print("reference: digest of small_a", digests.get("small_a"))
    if len(set(digests.values())) != len(digests) or "" in digests.values():
        print("WRONG: reference digests are not one per module:", digests)
    settings = [[name] for name in sorted(flags)] + [sorted(flags)]
    wrong = 0
    for names in settings:
        extra = [flags[n] for n in names]
        for name in names:
            for companion in COMPANIONS.get(name, []):
                if companion not in extra:
                    extra.append(companion)
        label = names[0] if len(names) == 1 else "all flags at once"
        observed = observe(extra)
        if observed == reference:
            print(f"{label}: same digests and folds")
            continue
        wrong += 1
        print(f"WRONG under {' '.join(extra)}:")
        for what, got, want in zip(("folds", "digests"), observed, reference):
            if got != want:
                print(f"  {what}: {got}\n  instead of {want}")
    print(f"{len(flags)} printing flags, {len(settings)} settings, "
          f"{wrong} wrong")


if __name__ == "__main__":
    main()
