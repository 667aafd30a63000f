"""Stale compiler replies: a compiler root whose libocloc.so answers builds
at random positions with the previous build's binary (another module's) or
with a binary built for another device. `wrong` counts a module whose kept
binary is not its own: other kernels than its entry points, or IntelGT
notes naming another device than the one asked for.

Run alone: python3 bench/hostile_sweep/stale_replies.py BUILD_DIR [COUNT]
"""

import re
import struct
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep import REPO, crashed, env_for, new_counts  # noqa: E402

LABEL = "stale compiler replies (previous module's or other device's zebin)"

FAKE = REPO / "test" / "Compilers" / "Inputs" / "replying_ocloc.c"
OPS = ("arith.addf", "arith.mulf", "arith.subf", "arith.maximumf",
       "arith.minimumf")
# pvc's product family and revision (docs/Devices.md); the foreign devices
# differ in one or the other.
PVC = (0x4F7, 7)
FOREIGN = ("pvc-sdv", "acm-g10", "acm-g11", "dg1")


def make_root(work):
    root = work / "root"
    (root / "lib").mkdir(parents=True)
    subprocess.run(["cc", "-shared", "-fPIC", "-o",
                    str(root / "lib" / "libocloc.so"), str(FAKE), "-ldl"],
                   check=True)
    (root / "lib" / "libigc.so.0-fake").touch()
    return root


def make_batch(rng, n):
    """n modules, each with 1-2 kernels named after it, bodies varied so
    that no two build alike."""
    modules, text = {}, ["module attributes {gpu.container_module} {"]
    for m in range(n):
        name = f"m{m}"
        kernels = [f"{name}_k{k}" for k in range(rng.randrange(1, 3))]
        modules[name] = kernels
        text.append(f"  gpu.module @{name} {{")
        for k, kernel in enumerate(kernels):
            op = OPS[(m + k) % len(OPS)]
            text.append(f"""    gpu.func @{kernel}(%buf: memref<64xf32>) kernel {{
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<64xf32>
      %c = arith.constant {m * 10 + k + 1}.0 : f32
      %w = {op} %v, %c : f32
      memref.store %w, %buf[%i] : memref<64xf32>
      gpu.return
    }}""")
        text.append("  }")
    text.append("}")
    return modules, "\n".join(text) + "\n"


def unescape(text):
    """An MLIR string literal's bytes (llvm::printEscapedString)."""
    out, i = bytearray(), 0
    while i < len(text):
        if text[i] == "\\":
            if text[i + 1] == "\\":
                out.append(0x5C)
                i += 2
            else:
                out.append(int(text[i + 1:i + 3], 16))
                i += 3
        else:
            out.append(ord(text[i]))
            i += 1
    return bytes(out)


def binaries(mlir):
    found = {}
    for match in re.finditer(r'gpu\.binary @(\w+)[^\n]*?bin = "((?:[^"\\]|'
                             r'\\.)*)"', mlir):
        found.setdefault(match.group(1), []).append(unescape(match.group(2)))
    return found


def zebin_facts(data):
    """(kernel names from .text.*, (product family, min revision))."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    size, count, strndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", data, shoff + i * size)
                for i in range(count)]
    strings = sections[strndx][4]

    def name(offset):
        end = data.index(b"\0", strings + offset)
        return data[strings + offset:end].decode()

    kernels, family, revision = set(), None, None
    for nm, kind, _, _, offset, length in sections:
        if name(nm).startswith(".text."):
            kernels.add(name(nm)[6:])
        if name(nm) == ".note.intelgt.compat":
            p = offset
            while p + 12 <= offset + length:
                nsz, dsz, typ = struct.unpack_from("<III", data, p)
                p += 12 + ((nsz + 3) & ~3)
                if dsz == 4:
                    value, = struct.unpack_from("<I", data, p)
                    if typ == 1:
                        family = value
                    elif typ == 3:
                        revision = (value >> 8) & 0x1F
                p += (dsz + 3) & ~3
    return kernels, (family, revision)


def is_own(binary, names, modules):
    """A module's binary holds exactly its kernels; a linked binary
    (xpu_linked...) the kernels of whole modules of the batch."""
    if binary in modules:
        return names == set(modules[binary])
    whole = [set(k) for k in modules.values() if set(k) & names]
    return bool(names) and names == set().union(*whole)


def run_case(build, root, rng, work, index):
    modules, text = make_batch(rng, rng.randrange(2, 6))
    folder = work / f"case{index}"
    folder.mkdir()
    (folder / "in.mlir").write_text(text)
    mode = "stale" if rng.random() < 0.6 else "device=" + rng.choice(FOREIGN)
    positions = sorted(rng.sample(range(1, 12), rng.randrange(1, 4)))
    options = [f"arch=pvc compiler-root={root}",
               f"grf-mode={rng.choice(['small', 'auto', 'large'])}",
               f"link={rng.choice(['true', 'false'])}",
               f"jobs={rng.choice([1, 2])}",
               "cache-dir=" + (str(folder / "cache") if rng.random() < 0.5
                               else "none"),
               f"report={folder / 'r.json'}"]
    env = env_for(build)
    env.update(XPU_FAKE_OCLOC=mode,
               XPU_FAKE_OCLOC_AT=",".join(map(str, positions)))
    proc = subprocess.run(
        [str(build / "bin" / "xpu-opt"), str(folder / "in.mlir"), "-o",
         str(folder / "out.mlir"),
         "--xpu-codegen-pipeline=" + " ".join(options)],
        capture_output=True, text=True, timeout=600, env=env)
    return modules, proc, folder


def sweep(build, count, rng, work):
    counts = new_counts()
    root = make_root(work)
    for index in range(count):
        try:
            modules, proc, folder = run_case(build, root, rng, work, index)
        except subprocess.TimeoutExpired:
            counts["tried"] += 1
            counts["hung"] += 1
            continue
        counts["tried"] += 1
        if crashed(proc):
            counts["crashed"] += 1
            print("CRASH", proc.returncode, proc.stderr[-600:],
                  file=sys.stderr)
            continue
        out = folder / "out.mlir"
        kept = binaries(out.read_text()) if out.exists() else {}
        wrong = False
        for name, datas in kept.items():
            for data in datas:
                names, device = zebin_facts(data)
                if not is_own(name, names, modules) or device != PVC:
                    wrong = True
                    print("WRONG", folder, name, sorted(names), device,
                          file=sys.stderr)
        if wrong:
            counts["wrong"] += 1
        elif proc.returncode:
            counts["clean"] += 1
        else:
            counts["ok"] += 1
    return counts


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], 30)
