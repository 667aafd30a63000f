#!/usr/bin/env python3
"""Writes a register-tiled SGEMM kernel in OpenCL C, in the shape of CLBlast's
xgemm: each work-item keeps an M x N tile of accumulators and walks K in
steps of KWI. Large tiles make IGC 2.x's RetryManager recompile the kernel.

Usage: gen_gemm.py NAME M N KWI
"""
import sys


def gemm(name, m, n, kwi):
    lines = [
        f"__kernel void {name}(int M, int N, int K, __global const float *A,",
        "                      __global const float *B, __global float *C) {",
        "  int gm = get_global_id(0);",
        "  int gn = get_global_id(1);",
    ]
    lines += [f"  float c{i}_{j} = 0.0f;" for i in range(m) for j in range(n)]
    lines.append(f"  for (int k = 0; k < K; k += {kwi}) {{")
    for kk in range(kwi):
        lines += [f"    float a{i}_{kk} = A[(gm * {m} + {i}) * K + k + {kk}];"
                  for i in range(m)]
        lines += [f"    float b{j}_{kk} = B[(k + {kk}) * N + gn * {n} + {j}];"
                  for j in range(n)]
        lines += [f"    c{i}_{j} = mad(a{i}_{kk}, b{j}_{kk}, c{i}_{j});"
                  for i in range(m) for j in range(n)]
    lines.append("  }")
    lines += [f"  C[(gm * {m} + {i}) * N + gn * {n} + {j}] = c{i}_{j};"
              for i in range(m) for j in range(n)]
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    name, m, n, kwi = sys.argv[1], *map(int, sys.argv[2:5])
    sys.stdout.write(gemm(name, m, n, kwi))
