"""Damages every entry of an XPUCodegen cache directory (for lit tests).

Usage: corrupt-cache.py flip|truncate|garbage CACHE_DIR
"""
import glob
import sys


def main():
    mode, root = sys.argv[1], sys.argv[2]
    entries = [p for p in glob.glob(root + "/v2/llvmcache-*") if ".tmp-" not in p]
    if not entries:
        sys.exit("no cache entries under " + root)
    for path in entries:
        data = bytearray(open(path, "rb").read())
        if mode == "flip":
            data[len(data) // 2] ^= 0xFF
        elif mode == "truncate":
            data = data[: len(data) // 3]
        elif mode == "garbage":
            data = bytearray(b"garbage")
        else:
            sys.exit("unknown mode " + mode)
        open(path, "wb").write(data)
    print(len(entries), "entries damaged")


if __name__ == "__main__":
    main()
