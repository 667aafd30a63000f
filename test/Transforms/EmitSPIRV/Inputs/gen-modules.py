"""Prints a container module of gpu.modules made by examples/gen_accumulate.py.

The 24 variants of many-modules.test (element type, vector width, number of
kernels), named <prefix><n>_<width>_<type>, once per prefix, optionally in
reverse order or only those named with --only.
"""
import argparse
import os
import subprocess
import sys

GEN = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..",
                   "examples", "gen_accumulate.py")


def variants():
    for t in ("f32", "f16"):
        for w in (4, 8, 16):
            for n in (1, 2, 3, 5):
                yield n, w, t


def module(name, n, w, t):
    kernels = [str(k) for k in range(1, n + 1)] if n > 1 else ["1"]
    text = subprocess.run(
        [sys.executable, GEN, *kernels, "--width", str(w), "--type", t,
         "--module", name], capture_output=True, text=True, check=True).stdout
    # Drop the enclosing container module.
    return text.split("\n", 1)[1].rsplit("}", 1)[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefixes", default="m")
    parser.add_argument("--reverse", action="store_true")
    parser.add_argument("--only", default="",
                        help="comma-separated module names to keep")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    modules = []
    for prefix in args.prefixes.split(","):
        for n, w, t in variants():
            name = f"{prefix}{n}_{w}_{t}"
            if not only or name in only:
                modules.append((name, n, w, t))
    if args.reverse:
        modules.reverse()
    print("module attributes {gpu.container_module} {")
    for name, n, w, t in modules:
        print(module(name, n, w, t))
    print("}")


if __name__ == "__main__":
    main()
