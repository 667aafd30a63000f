"""What each compiler decided for an input, kept beside the cache, so that a
compile can say what changed since another compiler compiled the same input
(``python3 -m xpu_codegen compile --explain-changes``) without building
anything more.

The record of an input lives in ``<cache dir>/decisions/<key>.json``, keyed
by the input's bytes and the options that shape decisions (never the
compiler, the cache or the worker limits): for each of the last
``MAX_COMPILERS`` compiler identities that compiled it, each kernel's side
of a diff row (``_diff.py``). The file crosses a cache boundary: it is read
only up to ``MAX_RECORD_BYTES``, must match the schema, and is ignored (and
replaced at the next record) otherwise.
"""

import hashlib
import json
import os
from typing import Dict, List, Optional, Sequence, Tuple

from . import _xpu_codegen
from ._diff import FIELDS, _kernel_sides, make_row
from ._output import write_output

MAX_RECORD_BYTES = 1 << 20
MAX_COMPILERS = 8
#: Records kept; the least recently written go first.
MAX_RECORDS = 4096
_VERSION = 1

#: The options that shape a decision (with the input, the record's key).
DECISION_OPTIONS = ("arch", "grf_mode", "backend", "spill_threshold",
                    "auto_strategy", "flags", "validate",
                    "max_workgroup_size", "n_regs_default", "link",
                    "subgroup_size")

_SIDE_TYPES = {"grf_mode": str, "grf_count": int, "spill_size": int,
               "simd": int, "threads_per_eu": int, "lanes": int,
               "private_size": int, "code_size": int, "compile_ms": int}


def record_path(cache_dir: Optional[str], data: bytes,
                options: dict) -> Optional[str]:
    """Where the record of input ``data`` compiled with ``options`` lives,
    or None when the compile uses no cache directory."""
    directory = _xpu_codegen.resolve_cache_dir(
        os.fspath(cache_dir) if cache_dir else "")
    if not directory:
        return None
    key = hashlib.sha256(data)
    for name in DECISION_OPTIONS:
        key.update(f"\0{name}={options.get(name)!r}".encode())
    return os.path.join(directory, "decisions", key.hexdigest() + ".json")


def _is(value, kind) -> bool:
    # JSON's true/false are Python bools, which are ints too.
    return isinstance(value, kind) and not (kind is int and
                                            isinstance(value, bool))


def _valid_side(side) -> bool:
    return isinstance(side, dict) and all(
        _is(side.get(name), kind) for name, kind in _SIDE_TYPES.items())


def _valid_result(result) -> bool:
    return (isinstance(result, dict) and
            isinstance(result.get("compiler"), str) and
            isinstance(result.get("kernels"), list) and
            all(isinstance(k, dict) and isinstance(k.get("module"), str) and
                isinstance(k.get("kernel"), str) and
                _valid_side(k.get("side")) for k in result["kernels"]))


def load(path: str) -> List[dict]:
    """The results a record holds, oldest first; [] for a missing, oversized
    or malformed record."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
        if len(data) > MAX_RECORD_BYTES:
            return []
        record = json.loads(data)
    except (OSError, ValueError, RecursionError):
        return []
    if not isinstance(record, dict) or record.get("version") != _VERSION:
        return []
    results = record.get("results")
    if not isinstance(results, list) or not all(map(_valid_result, results)):
        return []
    return results


def _sides(modules) -> Tuple[str, List[dict]]:
    """The compiler identity and each kernel's side of ``modules``."""
    compiler = ""
    kernels = []
    for module in modules:
        compiler = compiler or module.compiler
        for kernel, side in _kernel_sides(module).items():
            kernels.append({"module": module.name, "kernel": kernel,
                            "side": {f: side[f] for f in FIELDS}})
    return compiler, kernels


def record(path: str, modules: Sequence) -> None:
    """Adds what ``modules`` decided to the record at ``path`` (replacing an
    earlier result of the same compiler). Failing to write is not an error
    of the compile: the record is only ever a help."""
    compiler, kernels = _sides(modules)
    if not compiler or not kernels:
        return
    results = [r for r in load(path) if r["compiler"] != compiler]
    results = (results + [{"compiler": compiler, "kernels": kernels}]
               )[-MAX_COMPILERS:]
    text = json.dumps({"version": _VERSION, "results": results})
    if len(text) > MAX_RECORD_BYTES:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_output(path, text.encode("utf-8"))
        _prune(os.path.dirname(path))
    except (OSError, ValueError):
        pass


def _prune(directory: str) -> None:
    """Keeps the MAX_RECORDS most recently written records."""
    with os.scandir(directory) as entries:
        records = [(e.stat().st_mtime, e.path) for e in entries
                   if e.name.endswith(".json") and e.is_file()]
    records.sort()
    for _, stale in records[:max(0, len(records) - MAX_RECORDS)]:
        os.unlink(stale)


def explain(path: str, modules: Sequence) -> List[Tuple[str, List[dict]]]:
    """For each other compiler the record at ``path`` holds (most recent
    first): its identity and one diff row per kernel (``old`` that
    compiler's side, ``new`` this compile's)."""
    compiler, kernels = _sides(modules)
    current: Dict[Tuple[str, str], dict] = {
        (k["module"], k["kernel"]): k["side"] for k in kernels}
    explained = []
    for result in reversed(load(path)):
        if result["compiler"] == compiler:
            continue
        old = {(k["module"], k["kernel"]): k["side"]
               for k in result["kernels"]}
        rows = [make_row(module, kernel, "", old.get((module, kernel)),
                         current.get((module, kernel)))
                for module, kernel in list(old) +
                [k for k in current if k not in old]]
        explained.append((result["compiler"], rows))
    return explained
