"""From a native outcome to the API's values: each module's report entry
(the JSON the ``xpu-native-codegen`` pass writes) read into a Module, a
failure into its CompileError, and the report of modules written back."""

import json
import os
from typing import Sequence, Union

from ._output import write_output
from ._types import Attempt, CompileError, Kernel, Module, OutOfResources


def _module_from_entry(entry: dict, binary: bytes) -> Module:
    kernels = tuple(
        Kernel(
            name=k["name"],
            grf_count=k["grf_count"],
            simd=k["simd"],
            spill_size=k["spill_size"],
            private_size=k["private_size"],
            scratch_size=k.get("scratch_size", 0),
            n_spills=k["n_spills"],
            threads_per_eu=k.get("threads_per_eu", 0),
        )
        for k in entry["kernels"]
    )
    attempts = tuple(
        Attempt(
            grf_mode=a["grf_mode"],
            build_flags=a["build_flags"],
            spill_size=a["spill_size"],
            compile_ms=a["compile_ms"],
            cache=a.get("cache"),
        )
        for a in entry["attempts"]
    )
    return Module(
        name=entry["module"],
        arch=entry["arch"],
        binary=binary,
        grf_mode=entry["grf_mode"],
        n_regs=entry["n_regs"],
        spill_size=entry["spill_size"],
        n_spills=max((k.n_spills for k in kernels), default=0),
        threads_per_eu=min((k.threads_per_eu for k in kernels
                            if k.threads_per_eu), default=0),
        build_flags=entry["build_flags"],
        backend=entry["backend"],
        backend_reason=entry.get("backend_reason", ""),
        compiler=entry.get("compiler", ""),
        cache=entry.get("cache", ""),
        decision=entry.get("decision", ""),
        attempts=attempts,
        kernels=kernels,
        report_entry=entry,
    )


def _error_for(diagnostics: str, entries: Sequence[dict],
               modules: Sequence["Module"] = ()) -> CompileError:
    """CompileError, or OutOfResources when every failed module ran out of
    resources (what an autotuner can skip); ``modules`` are the ones that
    compiled."""
    failed = [e for e in entries if "error" in e]
    resources = [e["out_of_resources"] for e in failed
                 if "out_of_resources" in e]
    if failed and len(resources) == len(failed):
        first = resources[0]
        return OutOfResources(diagnostics, entries, modules,
                              resource=first["resource"],
                              required=first["required"], limit=first["limit"])
    return CompileError(diagnostics, entries, modules)


def _modules_of(outcome: dict):
    """The modules of a native outcome and its warnings (text, or "");
    raises the CompileError of a failed one."""
    entries = [json.loads(m["entry"]) for m in outcome["modules"]]
    if not outcome["success"]:
        good = [_module_from_entry(entry, m["binary"])
                for entry, m in zip(entries, outcome["modules"])
                if m["binary"] is not None and "error" not in entry]
        raise _error_for(outcome["diagnostics"], entries, good)
    modules = [_module_from_entry(entry, m["binary"])
               for entry, m in zip(entries, outcome["modules"])]
    return modules, outcome["diagnostics"].rstrip()


def report(modules) -> dict:
    """The JSON report ({"version": 1, "modules": [...]}) of ``modules``.

    ``modules`` holds :class:`Module` objects or report entries (dicts, e.g.
    :attr:`CompileError.report_entries`); the result has the format of the
    ``xpu-native-codegen`` pass's ``report=<path>``.
    """
    entries = [m.report_entry if isinstance(m, Module) else m for m in modules]
    return {"version": 1, "modules": entries}


def write_report(path: Union[str, os.PathLike], modules) -> None:
    """Writes :func:`report` of ``modules`` to ``path`` as JSON, atomically
    and through symlinks (never replacing a link or a device)."""
    text = json.dumps(report(modules), indent=2) + "\n"
    write_output(path, text.encode("utf-8"))
