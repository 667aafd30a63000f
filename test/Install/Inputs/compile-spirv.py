"""Compiles one SPIR-V file with the xpu_codegen package on PYTHONPATH.

Prints where the package and its worker are, then each module's decision.
"""

import os
import sys

import xpu_codegen
from xpu_codegen import _xpu_codegen

path = sys.argv[1]
print("package:", xpu_codegen.__file__)
print("worker:", _xpu_codegen.find_worker())
name = os.path.splitext(os.path.basename(path))[0]
with open(path, "rb") as f:
    modules = xpu_codegen.compile(f.read(), arch="pvc", name=name,
                                  cache_dir="none")
for m in modules:
    print(f"{m.name}: grf_mode {m.grf_mode}, n_regs {m.n_regs}")
