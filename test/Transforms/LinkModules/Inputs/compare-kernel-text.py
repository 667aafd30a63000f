"""Compares one kernel's native code (.text.KERNEL of the zebins) in two IR
files, disassembled with IGA (libiga64 of a compiler root).

Usage: compare-kernel-text.py --iga LIBIGA64 --platform xe2|xe-hpc
                              A.mlir B.mlir KERNEL

Prints the .text sizes, whether the two are identical through the
end-of-thread send (EOT) and as a whole, and the instructions each has after
EOT other than padding (illegal, nop) and labels, spaces collapsed.
"""
import argparse
import ctypes
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "Inputs"))
from mlir_strings import unescape  # noqa: E402

ELF = re.compile(r'"\\7FELF((?:[^"\\]|\\.)*)"')
PLATFORMS = {"xe2": 2 << 24, "xe-hpc": (1 << 24) | 4}


def sections(data):
    """Section name -> bytes of a 64-bit little-endian ELF."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
               for i in range(shnum)]
    strtab = headers[shstrndx][4]
    out = {}
    for name, kind, _, _, offset, size in headers:
        end = data.index(b"\0", strtab + name)
        out[data[strtab + name:end].decode()] = (
            data[offset:offset + size] if kind != 8 else b"")
    return out


def kernel_text(path, kernel):
    found = [s[".text." + kernel]
             for payload in ELF.findall(open(path).read())
             for s in [sections(unescape("\\7FELF" + payload))]
             if ".text." + kernel in s]
    if len(found) != 1:
        raise SystemExit(f"{path}: {len(found)} zebins define {kernel}")
    return found[0]


class IGA:
    class ContextOptions(ctypes.Structure):
        _fields_ = [("cb", ctypes.c_size_t), ("gen", ctypes.c_int)]

    class DisassembleOptions(ctypes.Structure):
        _fields_ = [(name, ctypes.c_uint32) for name in
                    ("cb", "formatting", "reserved0", "reserved1", "decoder",
                     "base_pc")]

    def __init__(self, library, platform):
        self.lib = ctypes.CDLL(library)
        self.context = ctypes.c_void_p()
        options = self.ContextOptions(ctypes.sizeof(self.ContextOptions),
                                      PLATFORMS[platform])
        if self.lib.iga_context_create(ctypes.byref(options),
                                       ctypes.byref(self.context)):
            raise SystemExit("iga_context_create failed")

    def disassemble(self, code):
        options = self.DisassembleOptions(
            ctypes.sizeof(self.DisassembleOptions), 0, 0, 0, 0, 0)
        text = ctypes.c_char_p()
        if self.lib.iga_context_disassemble(self.context, ctypes.byref(options),
                                            code, len(code), None, None,
                                            ctypes.byref(text)):
            raise SystemExit("iga_context_disassemble failed")
        lines = [" ".join(l.split()) for l in text.value.decode().splitlines()]
        return [l for l in lines if l]


def split_at_eot(lines):
    eot = next(n for n, l in enumerate(lines) if "EOT" in l)
    tail = [l for l in lines[eot + 1:]
            if l not in ("illegal", "nop") and not l.endswith(":")]
    return lines[:eot + 1], tail


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iga", required=True)
    parser.add_argument("--platform", required=True, choices=PLATFORMS)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("kernel")
    args = parser.parse_args()
    iga = IGA(args.iga, args.platform)
    a = kernel_text(args.a, args.kernel)
    b = kernel_text(args.b, args.kernel)
    head_a, tail_a = split_at_eot(iga.disassemble(a))
    head_b, tail_b = split_at_eot(iga.disassemble(b))
    count = sum(1 for l in head_a if not l.endswith(":"))
    print(f"{args.kernel}: .text {len(a)} and {len(b)} bytes")
    print(f"through EOT ({count} instructions): "
          + ("identical" if head_a == head_b else "different"))
    print("whole .text: " + ("identical" if a == b else "different"))
    for name, tail in (("A", tail_a), ("B", tail_b)):
        print(f"after EOT {name}: " + ("; ".join(tail) or "nothing"))


if __name__ == "__main__":
    main()
