"""What the API returns and raises: the compile errors and warnings, the
compiled modules with their builds and kernels, zebins' kernels and device
table entries."""

import os
from dataclasses import dataclass, field
from typing import Optional, Sequence, Tuple, Union

from ._output import write_output


class CompileError(Exception):
    """A compilation failed.

    ``str(error)`` and :attr:`diagnostics` hold the located diagnostics
    (``file:line:col: error: ...``). :attr:`report_entries` holds the report
    entries of every module that was attempted (failed ones carry an
    ``"error"`` key), and :attr:`modules` the :class:`Module` (with its
    binary) of every module that did compile, so one bad module never loses
    the others' results.
    """

    def __init__(self, diagnostics: str, report_entries: Sequence[dict] = (),
                 modules: Sequence["Module"] = ()):
        if not isinstance(diagnostics, str):
            raise TypeError("CompileError: diagnostics must be a str, got "
                            f"{type(diagnostics).__name__}")
        self.diagnostics = diagnostics.rstrip() or "compilation failed"
        self.report_entries = list(report_entries)
        self.modules = tuple(modules)
        super().__init__(self.diagnostics)


class OutOfResources(CompileError):
    """A kernel needs more of a hardware resource than the device has, in
    every GRF mode the compile could use: per-thread scratch space (spills
    and private arrays over the PTSS limit) or its work-group size.

    ``resource``, ``required`` and ``limit`` are what Triton's
    ``OutOfResources`` carries (``required``/``limit`` are 0 where IGC gave
    no size, e.g. a degenerate zebin).
    """

    def __init__(self, diagnostics: str, report_entries: Sequence[dict] = (),
                 modules: Sequence["Module"] = (), *, resource: str = "",
                 required: int = 0, limit: int = 0):
        super().__init__(diagnostics, report_entries, modules)
        self.resource = resource
        self.required = required
        self.limit = limit


class CompileWarning(UserWarning):
    """A compile succeeded with warnings (e.g. a forced GRF mode spills)."""


@dataclass(frozen=True)
class Attempt:
    """One native build of a module."""

    grf_mode: str
    build_flags: str
    spill_size: int
    compile_ms: int
    cache: Optional[str] = None
    #: What the build took when it ran: ``compile_ms`` for a build of this
    #: compile, the original build's time for a cache hit (whose
    #: ``compile_ms`` is 0).
    built_ms: int = 0


@dataclass(frozen=True)
class Kernel:
    """What the kept build of a module measured for one kernel."""

    name: str
    grf_count: int
    simd: int
    spill_size: int
    private_size: int
    scratch_size: int
    n_spills: int
    #: Hardware threads one vector engine runs at ``grf_count`` registers
    #: (docs/Devices.md); 0 where the device table has no such count.
    threads_per_eu: int = 0
    #: The kernel's name in the module's binary, what a host asks the
    #: driver for (``zeKernelCreate``): ``name`` unless linking or
    #: deduplication gave the binary another name for it (a renamed copy of
    #: a kernel shares its original's binary; docs/NativeCodegen.md).
    binary_name: str = ""
    #: Set where IGC's build log gave another spill than the binary's
    #: ``.ze_info`` (``spill_size`` is always the binary's): what each said.
    spill_note: str = ""


@dataclass(frozen=True)
class Module:
    """One compiled module: the native binary and its GRF decision.

    ``grf_mode``, ``n_regs``, ``spill_size`` and ``build_flags`` describe the
    kept build; ``n_spills`` is the largest ``n_spills`` of its kernels (the
    build flags, and so the GRF mode, apply to the whole module), and
    ``threads_per_eu`` the fewest threads per vector engine of its kernels
    (0 where none is known).
    """

    name: str
    arch: str
    binary: bytes = field(repr=False)
    grf_mode: str
    n_regs: int
    spill_size: int
    n_spills: int
    threads_per_eu: int
    build_flags: str
    backend: str
    backend_reason: str
    compiler: str = field(repr=False)
    cache: str
    decision: str
    attempts: Tuple[Attempt, ...]
    kernels: Tuple[Kernel, ...]
    report_entry: dict = field(repr=False, compare=False)

    def write(self, path: Union[str, os.PathLike]) -> None:
        """Writes the native binary (zebin) to ``path``, atomically and
        through symlinks (a device such as /dev/null is written in place).
        """
        write_output(path, self.binary)


@dataclass(frozen=True)
class ZebinKernel:
    """What a zebin's ``.ze_info`` says about one kernel."""

    name: str
    grf_count: int
    simd: int
    scratch_size: int
    private_size: int
    spill_size: Optional[int]
    code_size: int


@dataclass(frozen=True)
class ZebinInfo:
    """The kernels of a zebin."""

    ze_info_version: str
    kernels: Tuple[ZebinKernel, ...]


@dataclass(frozen=True)
class Device:
    """What the device table knows about one device (docs/Devices.md)."""

    name: str
    family: str
    #: Registers per thread of each GRF mode the compiler builds, ascending.
    grf_modes: Tuple[int, ...]
    #: Hardware threads each vector engine keeps resident in each of those
    #: modes (the occupancy ``auto`` maximizes).
    threads_per_eu: Tuple[int, ...]
    eus_per_core: int
    max_work_group_size: int
    sub_group_sizes: Tuple[int, ...]
    max_scratch_per_thread: int
    #: Every register count a binary can have, ascending: the modes' and,
    #: on Xe3/Xe3P's variable register file, the counts between (32 ... 192).
    grf_counts: Tuple[int, ...] = ()
    #: Hardware threads each vector engine keeps resident at each of those
    #: counts.
    threads_per_count: Tuple[int, ...] = ()
    #: Threads per vector engine the released drivers count at each of those
    #: counts when they size the largest work-group (a different fact on
    #: ``cri``: docs/Devices.md).
    launch_threads_per_count: Tuple[int, ...] = ()

    def max_work_group_size_for(self, grf_count: int, simd: int) -> int:
        """The largest work-group a kernel with ``grf_count`` registers per
        thread at SIMD width ``simd`` can launch with (0: no such count):
        the driver's launch threads, not the resident ones."""
        if grf_count not in self.grf_counts:
            return 0
        threads = self.launch_threads_per_count[
            self.grf_counts.index(grf_count)]
        return min(self.eus_per_core * threads * simd,
                   self.max_work_group_size)
