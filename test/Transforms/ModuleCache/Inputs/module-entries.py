"""Finds or damages the module cache entries (xpu-module-cache) of an
XPUCodegen cache directory, for lit tests. Module entries are those whose
payload starts with the module record magic.

Usage: module-entries.py count|flip|foreign CACHE_DIR
  count    print how many module entries there are
  flip     flip one byte in the middle of each (its checksum fails)
  foreign  replace each by a copy of another entry (a build's: valid, but
           filed under another key)
"""
import glob
import sys

MAGIC = b"XPUMODC1"


def main():
    mode, root = sys.argv[1], sys.argv[2]
    entries = sorted(p for p in glob.glob(root + "/v2/llvmcache-*")
                     if ".tmp-" not in p and not p.endswith(".timestamp"))
    modules = [p for p in entries if MAGIC in open(p, "rb").read()]
    others = [p for p in entries if p not in modules]
    if mode == "count":
        print(len(modules), "module entries")
        return
    if not modules or not others:
        sys.exit("no module entries or no other entries under " + root)
    for path in modules:
        if mode == "flip":
            data = bytearray(open(path, "rb").read())
            data[len(data) // 2] ^= 0xFF
        elif mode == "foreign":
            data = open(others[0], "rb").read()
        else:
            sys.exit("unknown mode " + mode)
        open(path, "wb").write(data)
    print(len(modules), "module entries damaged")


if __name__ == "__main__":
    main()
