"""Stand-in for triton/runtime/jit.py: JITFunction.run's specialization,
which carries the stage hook's hash, and its kernel cache."""

from .. import knobs
from ..compiler import compiler


def compute_cache_key(kernel_key_cache, specialization, options):
    # As Triton's: the specialization and the options, as text.
    key = (tuple(specialization), str(options))
    cache_key = kernel_key_cache.get(key)
    if cache_key is None:
        cache_key = str(specialization) + str(options)
        kernel_key_cache[key] = cache_key
    return cache_key


class JITFunction:
    """A kernel launched with arguments: its SPIR-V stands for its source."""

    def __init__(self, src, target):
        self.src, self.target = src, target
        self.kernel_cache, self.kernel_key_cache = {}, {}
        self.compiles = 0

    def specialization(self, *args):
        specialization = [(type(a).__name__, a) for a in args]
        # Triton: a field for kernel-specific pass pipelines.
        if knobs.runtime.add_stages_inspection_hook is not None:
            _, inspect_stages_hash = (
                knobs.runtime.add_stages_inspection_hook())
            specialization.append(
                f'("custom_pipeline", {inspect_stages_hash})')
        return specialization

    def run(self, *args, **options):
        specialization = self.specialization(*args)
        key = compute_cache_key(self.kernel_key_cache, specialization,
                                options)
        kernel = self.kernel_cache.get(key)
        if kernel is None:
            self.compiles += 1
            kernel = compiler.compile(self.src, self.target, options)
            kernel.init_handles()
            self.kernel_cache[key] = kernel
        return kernel
