#!/usr/bin/env python3
"""Does IGC honour SPV_INTEL_maximum_registers per kernel? (issue 27 item 5)

Builds a two-kernel SPIR-V module with llc, adds `OpExecutionMode <k>
MaximumRegistersINTEL N` per kernel (LLVM 22's llc does not know the
extension yet), compiles it with both compilers and prints each kernel's
.ze_info grf_count. Findings: docs/Linking.md, "Per-kernel register counts".

usage: probe.py [--igc2-root DIR] [--device ptl] [--validate-off]
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

LLC = "/usr/lib/llvm-22/bin/llc"
REGISTER_LIMITS_INTEL = 6460  # OpCapability
MAXIMUM_REGISTERS_INTEL = 6461  # OpExecutionMode
KERNELS = """target triple = "spirv64-unknown-unknown"
define spir_kernel void @k128(ptr addrspace(1) %p) {
  store float 1.0, ptr addrspace(1) %p
  ret void
}
define spir_kernel void @k256(ptr addrspace(1) %p) {
  store float 2.0, ptr addrspace(1) %p
  ret void
}
"""


def words_of(data: bytes) -> list:
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def string_words(text: str) -> list:
    raw = text.encode() + b"\0"
    return words_of(raw + b"\0" * (-len(raw) % 4))


def add_maximum_registers(spirv: bytes, counts: dict) -> bytes:
    """Declares the extension and one MaximumRegistersINTEL mode per kernel."""
    words, insts, i = words_of(spirv), [], 5
    while i < len(words):
        insts.append(words[i:i + (words[i] >> 16)])
        i += words[i] >> 16
    entry_ids = {}
    for inst in insts:
        if inst[0] & 0xFFFF == 15:  # OpEntryPoint model id name
            name = struct.pack("<%dI" % (len(inst) - 3), *inst[3:])
            entry_ids[name.split(b"\0")[0].decode()] = inst[2]
    ext = string_words("SPV_INTEL_maximum_registers")
    out = []
    for inst in insts:
        opcode = inst[0] & 0xFFFF
        if opcode == 11:  # before OpExtInstImport
            out += [[(2 << 16) | 17, REGISTER_LIMITS_INTEL],
                    [((1 + len(ext)) << 16) | 10] + ext]
        if opcode == 3:  # before OpSource, after the other modes
            out += [[(4 << 16) | 16, entry_ids[k], MAXIMUM_REGISTERS_INTEL, n]
                    for k, n in counts.items()]
        out.append(inst)
    flat = words_of(spirv)[:5] + [w for inst in out for w in inst]
    return struct.pack("<%dI" % len(flat), *flat)


def grf_counts(zebin: bytes) -> dict:
    shoff, = struct.unpack_from("<Q", zebin, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", zebin, 0x3C)
    sections = [struct.unpack_from("<IIQQQQ", zebin, shoff + 64 * i)
                for i in range(shnum)]
    names = sections[shstrndx][4]
    counts, kernel = {}, None
    for sec in sections:
        if zebin[names + sec[0]:].split(b"\0")[0] != b".ze_info":
            continue
        for line in zebin[sec[4]:sec[4] + sec[5]].decode().splitlines():
            if m := re.match(r"\s+- name:\s+(\S+)", line):
                kernel = m.group(1)
            if m := re.search(r"grf_count:\s+(\d+)", line):
                counts[kernel] = int(m.group(1))
    return counts


def ocloc_commands(igc2_root: Path) -> dict:
    lib = igc2_root / "usr/lib/x86_64-linux-gnu"
    igc2 = [str(lib / "ld-linux-x86-64.so.2"), "--library-path", str(lib),
            str(next((igc2_root / "usr/bin").glob("ocloc-*")))]
    return {"igc1": ["ocloc"], "igc2": igc2}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--igc2-root", type=Path,
                        default=Path(__file__).resolve().parents[2] /
                        ".compilers/igc-2.40")
    parser.add_argument("--device", default="ptl")
    parser.add_argument("--validate-off", action="store_true",
                        help="IGC_ValidateSPIRVExtensionSupport=0")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.validate_off:
        env["IGC_ValidateSPIRVExtensionSupport"] = "0"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "two.ll").write_text(KERNELS)
        subprocess.run([LLC, "-mtriple=spirv64-unknown-unknown",
                        "-filetype=obj", "two.ll", "-o", "plain.spv"],
                       cwd=work, check=True)
        (work / "mr.spv").write_bytes(add_maximum_registers(
            (work / "plain.spv").read_bytes(), {"k128": 128, "k256": 256}))
        for compiler, ocloc in ocloc_commands(args.igc2_root).items():
            # IGC 1.0.12504 writes .ze_info only with -ze-allow-zebin.
            internal = ["-internal_options", "-ze-allow-zebin"] \
                if compiler == "igc1" else []
            # The module-wide flag shows that grf_count follows a request.
            large = "-ze-opt-large-register-file" if compiler == "igc1" \
                else "-ze-exp-register-file-size 256"
            for spv, options in (("plain.spv", ""), ("mr.spv", ""),
                                 ("plain.spv", large)):
                out = f"{compiler}.{spv}.{len(options)}"
                run = subprocess.run(
                    ocloc + ["compile", "-file", spv, "-spirv_input",
                             "-device", args.device, "-exclude_ir", "-output",
                             out, "-output_no_suffix", "-options", options] +
                    internal, cwd=work, env=env, stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT, text=True)
                zebin = next(work.glob(out + "*"), None)
                result = grf_counts(zebin.read_bytes()) if zebin and \
                    run.returncode == 0 else run.stdout.strip().splitlines()[-1]
                print(f"{compiler} {args.device} {spv} {options!r}: "
                      f"rc={run.returncode} {result}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
