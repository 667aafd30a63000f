"""Wraps SPIR-V files in a module of gpu.binary ops for xpu-native-codegen.

SPIR-V made elsewhere (clang, Triton, another pipeline) enters XPUCodegen as
a gpu.binary whose #gpu.object holds the SPIR-V bytes.

Usage: spirv-to-binary.py [--arch A] [--grf-mode M] NAME=FILE.spv ...
       (--arch may be a comma-separated list: one object per arch)
"""
import argparse


def escape(data):
    return "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}"
                   for b in data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", default="pvc")
    parser.add_argument("--grf-mode", default="auto")
    parser.add_argument("binaries", nargs="+", metavar="NAME=FILE")
    args = parser.parse_args()
    print("module attributes {gpu.container_module} {")
    for item in args.binaries:
        name, path = item.split("=", 1)
        payload = escape(open(path, "rb").read())
        objects = ", ".join(
            f'#gpu.object<#xpu.target<arch = "{arch}", grf_mode = {args.grf_mode}>, "{payload}">'
            for arch in args.arch.split(","))
        print(f"  gpu.binary @{name} [{objects}]")
    print("}")


if __name__ == "__main__":
    main()
