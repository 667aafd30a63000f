"""The command line's comparison of compilers: ``diff``, and what
``compile --explain-changes`` says (docs/Python.md)."""

import json
import sys
import warnings

from . import _api, _diff, _history
from ._options import OPTIONS
from ._output import write_output
from ._tables import table as _table


def remember_decisions(args, readable, results, options):
    """Records each input's decisions beside the cache and, with
    --explain-changes, says first what changed since another compiler
    compiled the same input (nothing is built for it)."""
    for (path, data), result in zip(readable, results):
        modules = (result.modules if isinstance(result, _api.CompileError)
                   else result)
        record = _history.record_path(args.cache_dir, data, options)
        if record is None or not modules:
            continue
        if args.explain_changes:
            _print_changes(path, _history.explain(record, modules))
        _history.record(record, modules)


def _print_changes(path, explained):
    if not explained:
        print(f"{path}: no other compiler's decisions for this input in the "
              f"cache")
        return
    for compiler, rows in explained:
        print(f"{path}: changes since {compiler} compiled it (from the "
              f"cache):")
        _print_diff_rows([r for r in rows if r["changed"]])
        print(_diff.summarize(rows))


_DIFF_COLUMNS = (("mode", "grf_mode"), ("regs", "grf_count"),
                 ("spill", "spill_size"), ("SIMD", "simd"),
                 ("thr/EU", "threads_per_eu"), ("lanes", "lanes"),
                 ("private", "private_size"), ("code", "code_size"),
                 ("ms", "compile_ms"))


def _diff_cell(row, field):
    """"old -> new", or the one value when both sides agree."""
    old, new = row["old"], row["new"]
    a = "-" if old is None else old[field]
    b = "-" if new is None else new[field]
    return str(a) if a == b else f"{a} -> {b}"


def _print_diff_rows(rows):
    """The table of diff rows (none: nothing)."""
    if not rows:
        return
    with_arch = any(r["arch"] for r in rows)
    header = ["module", "kernel"] + (["arch"] if with_arch else []) + \
        [name for name, _ in _DIFF_COLUMNS] + ["verdict"]
    print(_table(header, [
        [r["module"], r["kernel"]] + ([r["arch"]] if with_arch else []) +
        [_diff_cell(r, field) for _, field in _DIFF_COLUMNS] +
        [r["verdict"]] for r in rows]))


def _run_diff(args):
    if len(args.compiler_root) != 2:
        print("error: diff needs --compiler-root twice (old, then new)",
              file=sys.stderr)
        return 2
    options = dict(grf_mode=args.grf_mode, backend=args.backend,
                   spill_threshold=args.spill_threshold,
                   cache_dir=args.cache_dir, jobs=args.jobs,
                   auto_strategy=args.auto_strategy, flags=args.flags)
    progress = (lambda text: print(f"xpu_codegen diff: {text}",
                                   file=sys.stderr))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", _api.CompileWarning)
            rows = _diff.diff(args.inputs, args.compiler_root,
                              archs=args.arch or None, progress=progress,
                              **options)
    except (ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: cannot read {error.filename}: {error.strerror}",
              file=sys.stderr)
        return 1
    for row in rows:
        for side in ("old", "new"):
            if row[side] is None and row[f"{side}_error"]:
                first = row[f"{side}_error"].strip().splitlines()[0]
                print(f"{row['input']}: {side} compiler: {first}",
                      file=sys.stderr)
    _print_diff_rows([r for r in rows if r["changed"]])
    print(_diff.summarize(rows))
    if args.json:
        try:
            write_output(args.json, (json.dumps(rows, indent=2) +
                                     "\n").encode("utf-8"))
        except OSError as error:
            print(f"error: cannot write {args.json}: {error.strerror}",
                  file=sys.stderr)
            return 1
    if args.fail_on == "worse" and any(r["verdict"] == "worse"
                                       for r in rows):
        return 1
    return 0


def add_diff_command(commands, option, path):
    """The ``diff`` command."""
    diff = commands.add_parser(
        "diff", help="compare two compilers' decisions kernel by kernel",
        description="Compile each INPUT (.mlir or .spv files, or "
                    "directories of them) with two compilers under the same "
                    "options, through the cache (a second run builds "
                    "nothing), and print one row per kernel whose decision "
                    "or measurement changed, old -> new, with a verdict by "
                    "the project's objective (least spill, then most lanes "
                    "in flight, then fewest registers), then a summary. "
                    "Progress goes to stderr.")
    diff.add_argument("inputs", metavar="INPUT", nargs="+",
                      help="a .mlir or .spv file, or a directory of them")
    diff.add_argument("--compiler-root", metavar="DIR", action="append",
                      default=[], required=True,
                      help="given twice: the old compiler, then the new one "
                           "(an ocloc installation directory, or 'system' "
                           "for the system's)")
    arch = OPTIONS["arch"]
    diff.add_argument("--arch", action="append", metavar="ARCH",
                      help=f"{arch['description']} (repeatable; default: "
                           f"{arch['default']})")
    for name in ("grf_mode", "backend", "auto_strategy", "spill_threshold",
                 "flags", "cache_dir", "jobs"):
        option(diff, name)
    diff.add_argument("--json", metavar="FILE", type=path,
                      help="write every kernel's row (changed or not) as "
                           "a JSON list")
    diff.add_argument("--fail-on", choices=["worse"],
                      help="exit 1 when any kernel gets worse (for CI)")
    diff.set_defaults(run=_run_diff)
