"""Makes the IR that xpu-native-codegen sees when a kernel is split out of
its module (the interface of xpu-link-modules' per-kernel GRF splits), from
an IR dump after xpu-emit-spirv: the binary @m gets a copy @m_k2 marked
`xpu.split_from = @m`, and the launches of @m::@k2 go to @m_k2::@k2.

Usage: craft-split.py DUMP > OUT.mlir
"""
import re
import sys

lines = open(sys.argv[1]).read().splitlines()
out = []
for line in lines:
    if line.startswith("// -----//"):
        continue
    out.append(line)
    if line.startswith("  gpu.binary @m "):
        split = line.replace("gpu.binary @m ", "gpu.binary @m_k2 ", 1)
        split = re.sub(r'\{xpu\.module_cache_key = "[0-9a-f]+"\}',
                       '{xpu.split_from = @m}', split, count=1)
        assert "xpu.split_from" in split, "no cache key on @m"
        out.append(split)
text = "\n".join(out) + "\n"
text = text.replace("gpu.launch_func  @m::@k2", "gpu.launch_func  @m_k2::@k2")
sys.stdout.write(text)
