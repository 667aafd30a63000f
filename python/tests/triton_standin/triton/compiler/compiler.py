"""Stand-in for triton/compiler/compiler.py and get_cache_key of
triton/runtime/cache.py: the compile cache key (with the stage hook's key),
the stage loop, and CompiledKernel's choice of binary and loader call.

The cache is a dict in place of Triton's cache manager: a kernel whose key
was seen is returned without running any stage.
"""

import hashlib
import json
from dataclasses import dataclass

from .. import __version__, knobs
from ..backends.intel import driver
from ..backends.intel.compiler import XPUBackend

#: Stand-in for the on-disk cache: hash -> (metadata, {ext: output}).
CACHE = {}


@dataclass(frozen=True)
class GPUTarget:
    backend: str
    arch: dict
    warp_size: int


@dataclass(frozen=True)
class Source:
    """Stand-in for ASTSource: a kernel whose SPIR-V is known."""

    name: str
    spirv: bytes
    threads_per_warp: int = 32
    precise_divide_sqrt: bool = True
    ext: str = "ttir"

    def hash(self):
        digest = hashlib.sha256(self.name.encode("utf-8") + self.spirv)
        return digest.hexdigest()


def get_cache_key(src, backend, options, env_vars):
    # As Triton's: Triton's own version, the source, backend and options.
    return (f"{__version__}-{src.hash()}-{backend.hash()}-{options.hash()}-"
            f"{sorted(env_vars.items())}")


def cache_hash(src, backend, options, env_vars=None):
    """The hash compile() files a kernel under, with the hook's key."""
    key = get_cache_key(src, backend, options, env_vars or {})
    if knobs.runtime.add_stages_inspection_hook is not None:
        inspect_stages_key, _ = knobs.runtime.add_stages_inspection_hook()
        key += inspect_stages_key
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def compile(src, target, options=None, backend=None):
    """triton.compile: the cached kernel, else every stage in order."""
    backend = backend or XPUBackend(target)
    options = backend.parse_options(dict(options or {}))
    digest = cache_hash(src, backend, options)
    if digest in CACHE:
        metadata, asm = CACHE[digest]
        return CompiledKernel(src, metadata, asm, backend, digest, hit=True)
    metadata = {"hash": digest, "target": target, **options.__dict__}
    stages = {}
    backend.add_stages(stages, options, "triton")
    module, asm = src, {}
    for ext, compile_ir in list(stages.items())[list(stages).index(src.ext):]:
        module = compile_ir(module, metadata)
        asm[ext] = module
    # Triton writes the metadata as JSON: what a stage leaves must be data.
    json.loads(json.dumps(metadata, default=vars))
    CACHE[digest] = (metadata, asm)
    return CompiledKernel(src, metadata, asm, backend, digest, hit=False)


class CompiledKernel:
    """The binary Triton would load: metadata's binary_ext, else the
    backend's; loaded as native code when generate_native_code is set."""

    def __init__(self, src, metadata, asm, backend, digest, hit):
        self.src, self.metadata, self.asm = src, metadata, asm
        self.hash, self.cache_hit = digest, hit
        self.binary_ext = metadata.get("binary_ext", backend.binary_ext)
        self.kernel = asm[self.binary_ext]
        self.module = None

    def init_handles(self):
        meta = self.metadata
        device_arch = meta["target"].arch.get("arch", "unknown")
        (self.module, self.function, self.n_regs, self.n_spills,
         self.n_max_threads) = driver.load_binary(
            meta["name"], self.kernel, meta["shared"], meta["build_flags"],
            not meta["generate_native_code"], 0, device_arch)
        return self
