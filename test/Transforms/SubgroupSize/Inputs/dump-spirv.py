"""Prints, for each gpu.binary in MLIR text on stdin, its name and the
entry points and execution modes of its first SPIR-V object (spirv-dis)."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "Inputs"))
from mlir_strings import unescape  # noqa: E402

BINARY = re.compile(r'gpu\.binary @(\w+).*?, assembly = "((?:[^"\\]|\\.)*)"')


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
