"""The baseline's native builds: one ocloc process per build, with Triton's
retry for `auto` (small; large when small spills more than 16 slots per
lane), spills read as Triton reads them."""
import os
import re
import shutil
import tempfile

from common import ARCH, IGC_KERNELS

GRF_BYTES = 64  # IGC's "spilled around N" counts 64-byte GRFs on pvc.
OCLOC_FLAGS = {"small": "-cl-intel-128-GRF-per-thread",
               "large": "-cl-intel-256-GRF-per-thread"}
TRITON_SLOTS = 16  # Triton rebuilds large above 16 spill slots per lane.
# Both compilers' build log lines for a spilling kernel:
#   IGC 1.0.12504: "warning: kernel p16_k  compiled SIMD16 allocated 128 regs
#                   and spilled around 136"
#   IGC 2.x:       "warning: in kernel 'K': compiled SIMD32 allocated 128
#                   regs and spilled around 90"
SPILL_LINE = re.compile(r"kernel (?:'([^']+)':|(\S+))\s+compiled SIMD(\d+) "
                        r"allocated (\d+) regs and spilled around (\d+)")


def ze_info_spills(zebin):
    """{kernel: (simd, spill bytes)} from a zebin's .ze_info when it has
    execution_env.spill_size (IGC 2.x); {} otherwise (IGC 1.0.12504's
    .ze_info 1.20 has no such field). A minimal ELF64 section reader."""
    import struct
    if len(zebin) < 64 or zebin[:4] != b"\x7fELF":
        return {}
    shoff, = struct.unpack_from("<Q", zebin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", zebin, 0x3a)
    sections = [struct.unpack_from("<IIQQQQ", zebin, shoff + i * shentsize)
                for i in range(shnum)]
    names_off = sections[shstrndx][4]
    text = None
    for name_off, _, _, _, off, size in sections:
        end = zebin.index(b"\0", names_off + name_off)
        if zebin[names_off + name_off:end] == b".ze_info":
            text = zebin[off:off + size].decode(errors="replace")
    if text is None:
        return {}
    spills, name, simd = {}, None, None
    for line in text.splitlines():
        m = re.match(r"\s*- name:\s*(\S+)", line)
        if m:
            name, simd = m.group(1), None
        m = re.match(r"\s*simd_size:\s*(\d+)", line)
        if m:
            simd = int(m.group(1))
        m = re.match(r"\s*spill_size:\s*(\d+)", line)
        if m and name:
            spills[name] = (simd or 0, int(m.group(1)))
    return spills


def ocloc_build(compiler, spv, flags, work):
    """One ocloc process; (seconds, {kernel: (simd, spill bytes)}, error).
    Spills as Triton reads them: .ze_info spill_size where the compiler
    writes it (IGC 2.x), else the build log's line (64-byte GRFs; both
    compilers' formats)."""
    odir = tempfile.mkdtemp(dir=work)
    r, t = compiler.run(["compile", "-file", spv, "-spirv_input",
                         "-device", ARCH, "-internal_options",
                         "-ze-allow-zebin", "-options", flags, "-output",
                         "k", "-output_no_suffix", "-out_dir", odir], odir)
    log = (r.stdout + r.stderr).decode(errors="replace")
    # ocloc 22.43 writes k; ocloc 26 appends .bin whatever
    # -output_no_suffix says.
    out = next((os.path.join(odir, n) for n in ("k", "k.bin")
                if os.path.exists(os.path.join(odir, n))), None)
    zebin = b""
    if out:
        with open(out, "rb") as f:
            zebin = f.read()
    ok = r.returncode == 0 and out is not None
    shutil.rmtree(odir, ignore_errors=True)
    spills = {(m.group(1) or m.group(2)): (int(m.group(3)),
                                            int(m.group(5)) * GRF_BYTES)
              for m in SPILL_LINE.finditer(log)}
    if ok:
        spills.update({k: v for k, v in ze_info_spills(zebin).items()
                       if v[1] > 0 and k not in IGC_KERNELS})
    err = None if ok else f"ocloc rc {r.returncode}: {log.strip()[-200:]}"
    return t, spills, err


def triton_auto(compiler, spv, work):
    """Triton's retry: small, then large when small spills > 16 slots."""
    t, spills, err = ocloc_build(compiler, spv, OCLOC_FLAGS["small"], work)
    res = {"seconds": t, "builds": 1, "error": err, "mode": "small",
           "spill_small": max([s for _, s in spills.values()], default=0)}
    if err:
        return res
    if any(s // (4 * simd) > TRITON_SLOTS for simd, s in spills.values()):
        t2, spills2, err2 = ocloc_build(compiler, spv, OCLOC_FLAGS["large"],
                                        work)
        res.update(seconds=t + t2, builds=2, error=err2, mode="large",
                   spill_large=max([s for _, s in spills2.values()],
                                   default=0))
    return res

