"""Stand-in for triton.runtime.errors: the exceptions the Intel backend
raises from its zebin stage and loader."""

from ..errors import TritonError


class OutOfResources(TritonError):
    """A kernel needs more of a resource than the hardware has; Triton's
    autotuner skips the config that raised it."""

    def __init__(self, required, limit, name):
        self.required = required
        self.limit = limit
        self.name = name
        super().__init__(required, limit, name)

    def __str__(self):
        return (f"out of resource: {self.name}, Required: {self.required}, "
                f"Hardware limit: {self.limit}")

    def __reduce__(self):
        return (type(self), (self.required, self.limit, self.name))


class IntelGPUError(TritonError):
    """Compiler and Level Zero failures of the Intel backend."""
