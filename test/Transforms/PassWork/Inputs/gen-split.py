#!/usr/bin/env python3
"""N gpu.modules, each with a kernel that follows the target and one that
asks for large GRF (so xpu-select-grf-mode splits every module), equal up to
symbol names (so xpu-dedupe-modules folds them), each launched from a host
function of its own. Usage: gen-split.py N"""
import sys

n = int(sys.argv[1])
print("module attributes {gpu.container_module} {")
for i in range(n):
    print(f"""  gpu.module @m{i} {{
    gpu.func @scale{i}(%a: memref<64xf32>) kernel {{
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<64xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%t] : memref<64xf32>
      gpu.return
    }}
    gpu.func @big{i}(%a: memref<64xf32>) kernel attributes {{xpu.grf_mode = #xpu.grf_mode<large>}} {{
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<64xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %a[%t] : memref<64xf32>
      gpu.return
    }}
  }}
  func.func @host{i}(%a: memref<64xf32>) {{
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m{i}::@scale{i} blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @m{i}::@big{i} blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>)
    return
  }}""")
print("}")
