"""Writes MLIR that nests `depth` levels of one kind to stdout."""
import sys

kind, depth = sys.argv[1], int(sys.argv[2])
if kind == "scf":
    print("gpu.module @deep {\n"
          "  gpu.func @k(%buf: memref<64xf32>, %t: i1) kernel {\n"
          "    %i = gpu.thread_id x\n"
          "    %f = arith.constant 1.0 : f32\n"
          + "scf.if %t {\n" * depth
          + "    memref.store %f, %buf[%i] : memref<64xf32>\n"
          + "}\n" * depth
          + "    gpu.return\n  }\n}")
elif kind == "brackets":
    print("module attributes {test.x = " + "[" * depth + "1" + "]" * depth
          + "} {}")
elif kind == "aliases":
    print("#a0 = [1]")
    for i in range(1, depth):
        print(f"#a{i} = [#a{i - 1}]")
    print(f"module attributes {{test.x = #a{depth - 1}}} {{}}")
elif kind == "affine":
    print("#map = affine_map<(d0) -> (" + " + ".join(["d0"] * depth)
          + ")>\nmodule attributes {test.x = #map} {}")
