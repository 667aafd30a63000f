from .compiler import CompiledKernel, compile, get_cache_key  # noqa: F401
