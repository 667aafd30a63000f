"""Upstream's lowering (the baseline's first step): Debian's mlir-opt
--gpu-lower-to-xevm-pipeline in one process, and the SPIR-V of the
#xevm.target objects it writes."""
import re

from common import ARCH, MLIR_OPT, BenchError, timed


def unescape_mlir_string(s):
    """The bytes of an MLIR string attribute's body (\\XX hex, \\\\, \\")."""
    out = bytearray()
    i, n = 0, len(s)
    while i < n:
        j = s.find("\\", i)
        if j < 0:
            out += s[i:].encode("latin-1")
            break
        out += s[i:j].encode("latin-1")
        nxt = s[j + 1]
        if nxt in "\\\"":
            out.append(ord(nxt))
            i = j + 2
        elif nxt == "n":
            out.append(10)
            i = j + 2
        elif nxt == "t":
            out.append(9)
            i = j + 2
        else:
            out.append(int(s[j + 1:j + 3], 16))
            i = j + 3
    return bytes(out)


BINARY = re.compile(r'gpu\.binary @([\w$.]+)\s*\[#gpu\.object<#xevm\.target'
                    r'<[^>]*>(?:, properties = \{[^}]*\})?, bin = '
                    r'"((?:[^"\\]|\\.)*)">\]')


def upstream_spirv(text):
    """{module: SPIR-V bytes} of the #xevm.target objects mlir-opt wrote."""
    return {m.group(1): unescape_mlir_string(m.group(2))
            for m in BINARY.finditer(text)}

def upstream_lower(path, out):
    """Upstream's lowering of a file, one mlir-opt process (timed):
    (seconds, {module: SPIR-V bytes})."""
    r, seconds = timed([MLIR_OPT, path, "--gpu-lower-to-xevm-pipeline="
                        f"zebin-chip={ARCH} binary-format=bin "
                        "xegpu-op-level=lane", "-o", out])
    if r.returncode != 0:
        raise BenchError(f"upstream mlir-opt failed on {path}: "
                         + r.stderr.decode(errors="replace")[-500:])
    with open(out, encoding="latin-1") as f:
        return seconds, upstream_spirv(f.read())

