"""Prints, for each gpu.binary in MLIR text on stdin, its name and the
entry points and execution modes of its first SPIR-V object (spirv-dis)."""
import re
import subprocess
import sys
import tempfile

BINARY = re.compile(r'gpu\.binary @(\w+).*?, assembly = "((?:[^"\\]|\\.)*)"')


def unescape(text):
    out = bytearray()
    i = 0
    while i < len(text):
        if text[i] == "\\":
            nxt = text[i + 1]
            if nxt in '"\\':
                out.append(ord(nxt))
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.append(ord(text[i]))
            i += 1
    return bytes(out)


for name, payload in BINARY.findall(sys.stdin.read()):
    with tempfile.NamedTemporaryFile(suffix=".spv") as spv:
        spv.write(unescape(payload))
        spv.flush()
        text = subprocess.run(["spirv-dis", "--raw-id", spv.name],
                              check=True, capture_output=True,
                              text=True).stdout
    print(f"binary @{name}")
    for line in text.splitlines():
        if "OpEntryPoint" in line or "OpExecutionMode" in line:
            print("  " + line.strip())
