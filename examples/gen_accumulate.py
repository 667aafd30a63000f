"""Generates gpu.module kernels with N live vector accumulators.

Register pressure grows with N. On pvc with IGC 1.0.12504 (vector<8xf32>):
At the default sub-group size (SIMD16): N=4 and N=12 do not spill, N=16 spills
only in small GRF mode (5888 bytes), N=32 spills in both (42368 and 9856).

Usage:
  gen_accumulate.py N [N ...] [--module NAME] [--width W] [--type f32|f16]
prints one module holding one kernel `acc<N>` per N.
"""
import argparse


def prologue(n, width, elem, name):
    """The kernel's signature and the values every shape starts from."""
    vec = f"vector<{width}x{elem}>"
    return [
        f"    gpu.func @{name}(%in: memref<?x{elem}>, %out: memref<?x{elem}>, %iters: index) kernel {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        f"      %cw = arith.constant {width} : index",
        f"      %zero = arith.constant 0.0 : {elem}",
        f"      %z = vector.broadcast %zero : {elem} to {vec}",
        "      %tid = gpu.global_id x",
        "      %base = arith.muli %tid, %cw : index",
    ]


def epilogue(n, width, elem):
    """Stores the N results `%r#i` and returns."""
    vec = f"vector<{width}x{elem}>"
    out = []
    for i in range(n):
        out += [
            f"      %o{i} = arith.constant {i * width} : index",
            f"      %p{i} = arith.addi %base, %o{i} : index",
            f"      vector.store %r#{i}, %out[%p{i}] : memref<?x{elem}>, {vec}",
        ]
    return out + ["      gpu.return", "    }"]


def update(n, width, elem, acc, indent):
    """Loads `%x` at `%off` and updates the accumulators `%<acc>i` into
    `%qi`."""
    vec = f"vector<{width}x{elem}>"
    out = [f"{indent}%x = vector.load %in[%off] : memref<?x{elem}>, {vec}"]
    for i in range(n):
        out += [
            f"{indent}%k{i} = arith.constant {float(i + 1)} : {elem}",
            f"{indent}%s{i} = vector.broadcast %k{i} : {elem} to {vec}",
            f"{indent}%m{i} = arith.mulf %x, %s{i} : {vec}",
            f"{indent}%n{i} = arith.addf {acc}{i}, %m{i} : {vec}",
            f"{indent}%q{i} = math.sqrt %n{i} : {vec}",
        ]
    return out


def kernel(n, width, elem, name):
    vec = f"vector<{width}x{elem}>"
    out = prologue(n, width, elem, name)
    inits = ", ".join(f"%a{i} = %z" for i in range(n))
    types = ", ".join(vec for _ in range(n))
    out.append(f"      %r:{n} = scf.for %it = %c0 to %iters step %c1 iter_args({inits}) -> ({types}) {{")
    out.append("        %off = arith.addi %base, %it : index")
    out += update(n, width, elem, "%a", "        ")
    out.append(f"        scf.yield {', '.join(f'%q{i}' for i in range(n))} : {types}")
    out.append("      }")
    return "\n".join(out + epilogue(n, width, elem))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("n", type=int, nargs="+")
    parser.add_argument("--module", default=None)
    parser.add_argument("--width", type=int, default=8)
    parser.add_argument("--type", default="f32", choices=["f32", "f16"])
    args = parser.parse_args()
    name = args.module or "acc" + "_".join(map(str, args.n))
    print("module attributes {gpu.container_module} {")
    print(f"  gpu.module @{name} {{")
    print("\n".join(kernel(n, args.width, args.type, f"acc{n}") for n in args.n))
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
