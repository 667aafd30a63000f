"""Prints `<name> <sha256>` per gpu.binary of the given IR files, sorted.

With --variants, names lose their first character (the prefix of
gen-modules.py) and repeated lines are printed once: copies of a module
emitted by different processes must give one line each.
"""
import argparse
import hashlib
import re

BINARY = re.compile(r'gpu\.binary @(\w+) .*?assembly = "((?:[^"\\]|\\.)*)"')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--variants", action="store_true")
    args = parser.parse_args()
    lines = set() if args.variants else []
    for path in args.files:
        with open(path) as f:
            for name, payload in BINARY.findall(f.read()):
                digest = hashlib.sha256(payload.encode()).hexdigest()
                if args.variants:
                    lines.add(f"{name[1:]} {digest}")
                else:
                    lines.append(f"{name} {digest}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
