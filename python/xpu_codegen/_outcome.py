"""From a native outcome to the API's values: each module's report entry
(the dict the extension prints from the module's result, as the
``xpu-native-codegen`` pass's report does) read into a Module, a failure
into its CompileError, and the report of modules written back. The keys
come from the extension (``fields``, ResultFields.def), never spelled
here."""

import json
import os
from typing import Sequence, Union

from ._output import write_output
from ._xpu_codegen import fields as F
from ._types import Attempt, CompileError, Kernel, Module, OutOfResources


def _module_from_entry(entry: dict, binary: bytes) -> Module:
    kernels = tuple(
        Kernel(
            name=k[F.NAME],
            grf_count=k[F.GRF_COUNT],
            simd=k[F.SIMD],
            spill_size=k[F.SPILL_SIZE],
            private_size=k[F.PRIVATE_SIZE],
            scratch_size=k.get(F.SCRATCH_SIZE, 0),
            n_spills=k[F.N_SPILLS],
            threads_per_eu=k.get(F.THREADS_PER_EU, 0),
            binary_name=k.get(F.LINKED_NAME, k[F.NAME]),
            spill_note=k.get(F.SPILL_NOTE, ""),
        )
        for k in entry[F.KERNELS]
    )
    attempts = tuple(
        Attempt(
            grf_mode=a[F.GRF_MODE],
            build_flags=a[F.BUILD_FLAGS],
            spill_size=a[F.SPILL_SIZE],
            compile_ms=a[F.COMPILE_MS],
            cache=a.get(F.CACHE),
            built_ms=a.get(F.BUILT_MS, a[F.COMPILE_MS]),
        )
        for a in entry[F.ATTEMPTS]
    )
    return Module(
        name=entry[F.MODULE],
        arch=entry[F.ARCH],
        binary=binary,
        grf_mode=entry[F.GRF_MODE],
        n_regs=entry[F.N_REGS],
        spill_size=entry[F.SPILL_SIZE],
        n_spills=max((k.n_spills for k in kernels), default=0),
        threads_per_eu=min((k.threads_per_eu for k in kernels
                            if k.threads_per_eu), default=0),
        build_flags=entry[F.BUILD_FLAGS],
        backend=entry[F.BACKEND],
        backend_reason=entry.get(F.BACKEND_REASON, ""),
        compiler=entry.get(F.COMPILER, ""),
        cache=entry.get(F.CACHE, ""),
        decision=entry.get(F.DECISION, ""),
        attempts=attempts,
        kernels=kernels,
        report_entry=entry,
    )


def _error_for(diagnostics: str, entries: Sequence[dict],
               modules: Sequence["Module"] = ()) -> CompileError:
    """CompileError, or OutOfResources when every failed module ran out of
    resources (what an autotuner can skip); ``modules`` are the ones that
    compiled."""
    failed = [e for e in entries if F.ERROR in e]
    resources = [e[F.OUT_OF_RESOURCES] for e in failed
                 if F.OUT_OF_RESOURCES in e]
    if failed and len(resources) == len(failed):
        first = resources[0]
        return OutOfResources(diagnostics, entries, modules,
                              resource=first[F.RESOURCE],
                              required=first[F.REQUIRED],
                              limit=first[F.LIMIT])
    return CompileError(diagnostics, entries, modules)


def _read_entries(entries: Sequence[dict], binaries) -> list:
    """The Modules of report entries; an entry that does not hold what the
    report schema promises (ReportSchema.h checks every entry that comes
    from outside the run) is a CompileError, never a KeyError."""
    try:
        return [_module_from_entry(entry, binary)
                for entry, binary in zip(entries, binaries)]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise CompileError(f"error: malformed report entry: {error!r}",
                           entries) from None


def _modules_of(outcome: dict):
    """The modules of a native outcome and its warnings (text, or "");
    raises the CompileError of a failed one."""
    entries = [m["entry"] for m in outcome["modules"]]
    if not outcome["success"]:
        compiled = [(entry, m["binary"])
                    for entry, m in zip(entries, outcome["modules"])
                    if m["binary"] is not None and F.ERROR not in entry]
        good = _read_entries([e for e, _ in compiled],
                             [b for _, b in compiled])
        raise _error_for(outcome["diagnostics"], entries, good)
    modules = _read_entries(entries,
                            [m["binary"] for m in outcome["modules"]])
    return modules, outcome["diagnostics"].rstrip()


def report(modules) -> dict:
    """The JSON report ({"version": 1, "modules": [...]}) of ``modules``.

    ``modules`` holds :class:`Module` objects or report entries (dicts, e.g.
    :attr:`CompileError.report_entries`); the result has the format of the
    ``xpu-native-codegen`` pass's ``report=<path>``.
    """
    entries = [m.report_entry if isinstance(m, Module) else m for m in modules]
    return {F.VERSION: 1, F.MODULES: entries}


def write_report(path: Union[str, os.PathLike], modules) -> None:
    """Writes :func:`report` of ``modules`` to ``path`` as JSON, atomically
    and through symlinks (never replacing a link or a device)."""
    text = json.dumps(report(modules), indent=2) + "\n"
    write_output(path, text.encode("utf-8"))
