"""The command line: ``python3 -m xpu_codegen compile|inspect ...``."""

import argparse
import os
import pathlib
import re
import struct
import sys
import threading
import time
import warnings

from . import _api, _cli_diff
from ._tables import table as _table
from ._input import SOURCE_SIZE_LIMIT, read_input_file
from ._options import COMPILE_OPTIONS, OPTIONS, compile_default, keyword

_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.+-]")


class _Progress:
    """Elapsed time of a long compile on stderr, only on a terminal.

    Nothing is shown for compiles shorter than ``delay`` seconds, and the
    line is erased when the compile ends, so piped output never sees it.
    """

    def __init__(self, label, stream=None, delay=0.5):
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.delay = delay
        self._stop = threading.Event()
        self._thread = None
        self._shown = False

    def __enter__(self):
        try:
            tty = self.stream.isatty()
        except (AttributeError, ValueError):
            tty = False
        if tty:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def _run(self):
        start = time.monotonic()
        spinner = "|/-\\"
        tick = 0
        while not self._stop.wait(0.1):
            elapsed = time.monotonic() - start
            if elapsed < self.delay:
                continue
            self.stream.write(f"\r\033[Kxpu_codegen: compiling {self.label} "
                              f"{spinner[tick % 4]} {elapsed:.1f} s")
            self.stream.flush()
            self._shown = True
            tick += 1

    def __exit__(self, *exc):
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            if self._shown:
                self.stream.write("\r\033[K")
                self.stream.flush()
        return False


def _count_spirv_kernels(data):
    """Number of OpEntryPoint instructions in a SPIR-V module (best effort)."""
    if data[:4] == b"\x03\x02\x23\x07":
        fmt = "<I"
    elif data[:4] == b"\x07\x23\x02\x03":
        fmt = ">I"
    else:
        return 0
    count, offset = 0, 20
    while offset + 4 <= len(data):
        (word,) = struct.unpack_from(fmt, data, offset)
        words, opcode = word >> 16, word & 0xFFFF
        if words == 0:
            break
        if opcode == 15:  # OpEntryPoint
            count += 1
        offset += 4 * words
    return count


def _progress_label(path, data):
    """E.g. "k.mlir (3 kernels in 2 modules)"."""
    name = os.path.basename(path)
    if _api.is_spirv(data):
        kernels = _count_spirv_kernels(data)
        return f"{name} ({kernels} kernel{'s' * (kernels != 1)})"
    text = data.decode("utf-8", errors="replace")
    modules = len(re.findall(r"\bgpu\.module\s+@", text))
    kernels = len(re.findall(r"\bgpu\.func\b[^{\n]*\bkernel\b", text))
    return (f"{name} ({kernels} kernel{'s' * (kernels != 1)} in {modules} "
            f"module{'s' * (modules != 1)})")


def _file_names(modules):
    """``<module>.zebin`` for each module, unique in the whole batch even
    on a case-insensitive file system. The name a module sanitizes to is
    its own when it is the first to take it; a later module of the same
    name (two inputs named x, or X and x) gets the first ``-2``, ``-3``...
    that no other module takes, so a module really named x-2 keeps
    x-2.zebin."""
    bases = [_SAFE_NAME.sub("_", m.name) or "module" for m in modules]
    taken = set()
    firsts = []
    for base in bases:
        firsts.append(base.casefold() not in taken)
        taken.add(base.casefold())
    names = []
    for base, first in zip(bases, firsts):
        name, suffix = base, 1
        while not first:
            suffix += 1
            name = f"{base}-{suffix}"
            first = name.casefold() not in taken
        taken.add(name.casefold())
        names.append(f"{name}.zebin")
    return names


def _binary_paths(modules, output, directory=False):
    """Where each module's zebin goes (see docs/Python.md and
    :func:`_file_names`)."""
    names = _file_names(modules)
    if output is None:
        return names
    if len(modules) == 1 and not directory and not os.path.isdir(output):
        return [output]
    os.makedirs(output, exist_ok=True)
    return [os.path.join(output, name) for name in names]


class _BatchProgress:
    """"k/N" on stderr while a batch compiles, only on a terminal; erased
    at the end so piped output never sees it."""

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self.shown = False

    def __call__(self, done, total):
        if not self.tty:
            return
        self.stream.write(f"\r\033[Kxpu_codegen: compiled {done}/{total}")
        self.stream.flush()
        self.shown = True

    def finish(self):
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _print_modules(modules, out):
    rows = []
    for m in modules:
        attempts = " ".join(f"{a.grf_mode}:{a.spill_size}"
                            for a in m.attempts)
        for k in m.kernels:
            # A host asks the binary for binary_name.
            kernel = k.name if k.binary_name in ("", k.name) else \
                f"{k.name} (as {k.binary_name})"
            rows.append([m.name, kernel, m.arch, m.grf_mode, m.n_regs,
                         k.grf_count, k.threads_per_eu or "-", k.simd,
                         k.spill_size, k.private_size, k.n_spills, attempts])
    header = ["module", "kernel", "arch", "grf_mode", "n_regs", "grf_count",
              "threads", "simd", "spill", "private", "n_spills",
              "attempts (spill)"]
    print(_table(header, rows), file=out)
    for m in modules:
        builds = len(m.attempts)
        compile_ms = sum(a.compile_ms for a in m.attempts)
        print(f"{m.name}: {m.backend}, {m.build_flags or '(no flags)'}, "
              f"{builds} build{'s' * (builds != 1)} in {compile_ms} ms, "
              f"cache {m.cache}: {m.decision}", file=out)


def _compile(args):
    readable, status = _read_inputs(args.inputs)
    batch = len(args.inputs) > 1
    results, stop = _compile_inputs(readable, _compile_options(args), batch)
    if results is None:
        return stop
    modules, entries, some_failed = _collect(readable, results)
    if some_failed:
        status = 1
    paths = _write_outputs(args, modules, entries, batch)
    if paths is None:
        return 1
    if status and args.report and entries:
        print(f"wrote {args.report} (with errors)", file=sys.stderr)
    _cli_diff.remember_decisions(args, readable, results,
                                 _compile_options(args))
    if not args.quiet and modules:
        _print_modules(modules, sys.stdout)
        for path in paths:
            print(f"wrote {path}")
        if args.report and not status:
            print(f"wrote {args.report}")
    if batch:
        failed = sum(isinstance(r, _api.CompileError) for r in results)
        failed += len(args.inputs) - len(readable)
        print(f"compiled {len(args.inputs) - failed} of {len(args.inputs)} "
              f"inputs" + (f", {failed} failed" if failed else ""),
              file=sys.stderr)
    return status


def _read_inputs(inputs):
    """The (path, bytes) of each readable input, and the exit status so far
    (1 when one could not be read: said on stderr)."""
    status = 0
    readable = []
    for path in inputs:
        try:
            data = read_input_file(path, SOURCE_SIZE_LIMIT, "sources")
        except OSError as error:
            print(f"error: cannot read {path}: {error.strerror}",
                  file=sys.stderr)
            status = 1
            continue
        readable.append((path, data))
    return readable, status


def _compile_options(args):
    """compile_many's options from the command line."""
    return {keyword(name): getattr(args, name) for name in COMPILE_OPTIONS}


def _compile_inputs(readable, options, batch):
    """compile_many's results for the readable inputs and None, with its
    warnings on stderr; or None and the exit status of an error that stops
    everything (2: a bad option value, 1: e.g. an unknown PCI device ID)."""
    progress = _BatchProgress()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", _api.CompileWarning)
            if batch:
                results = _api.compile_many(
                    [pathlib.Path(p) for p, _ in readable],
                    progress=progress, **options)
            elif readable:
                path, data = readable[0]
                with _Progress(_progress_label(path, data)):
                    results = _api.compile_many([pathlib.Path(path)],
                                                **options)
            else:
                results = []
    except (ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return None, 2
    except OSError as error:  # an input replaced since it was read
        print(f"error: cannot read {error.filename}: {error.strerror}",
              file=sys.stderr)
        return None, 1
    except _api.CompileError as error:  # e.g. an unknown PCI device ID
        print(error.diagnostics, file=sys.stderr)
        return None, 1
    finally:
        progress.finish()
    for warning in caught:
        print(warning.message, file=sys.stderr)
    return results, None


def _collect(readable, results):
    """Every good module and every report entry of the results, and whether
    one failed (its diagnostics on stderr)."""
    modules, entries = [], []
    failed = False
    for (path, _), result in zip(readable, results):
        if isinstance(result, _api.CompileError):
            # Its good modules are still written (their entries are in
            # report_entries with the failed ones').
            print(result.diagnostics, file=sys.stderr)
            modules.extend(result.modules)
            entries.extend(result.report_entries)
            failed = True
            continue
        if not result:
            print(f"{path}: no gpu.module to compile", file=sys.stderr)
        modules.extend(result)
        entries.extend(m.report_entry for m in result)
    return modules, entries, failed


def _write_outputs(args, modules, entries, batch):
    """Writes the binaries and the report; their paths, or None when one
    could not be written (said on stderr)."""
    # Every good binary is written, whatever failed. OUT is a file only for
    # an input of one module (a failed sibling makes it a directory too).
    paths = []
    target = args.output
    try:
        if modules:
            paths = _binary_paths(modules, args.output,
                                  directory=batch or len(entries) > 1)
            for module, target in zip(modules, paths):
                module.write(target)
        if args.report and entries:
            target = args.report
            _api.write_report(args.report, entries)
    except OSError as error:
        print(f"error: cannot write {target}: {error.strerror}",
              file=sys.stderr)
        return None
    return paths


def _inspect(args):
    status = 0
    for index, path in enumerate(args.files):
        try:
            info = _api.read_zebin(path)
        except OSError as error:
            print(f"error: cannot read {path}: {error.strerror}",
                  file=sys.stderr)
            status = 1
            continue
        except ValueError as error:
            print(f"error: {path}: {error}", file=sys.stderr)
            status = 1
            continue
        if index:
            print()
        print(f"{path}: zebin, .ze_info {info.ze_info_version}, "
              f"{len(info.kernels)} kernel{'s' * (len(info.kernels) != 1)}")
        rows = [[k.name, k.grf_count, k.simd, k.scratch_size, k.private_size,
                 "-" if k.spill_size is None else k.spill_size, k.code_size]
                for k in info.kernels]
        print(_table(["kernel", "grf_count", "simd", "scratch", "private",
                      "spill", "code bytes"], rows))
    return status


def _path(text):
    if not text:
        raise argparse.ArgumentTypeError("needs a path, got an empty one")
    return text


def _metavar(option) -> str:
    """The metavariable of a flag that takes a value: ``N`` for an integer,
    else the option's name (``ARCH``, ``CACHE_URL``)."""
    return "N" if option["kind"] == "integer" else option["name"].upper()


def _bounded(name):
    """The argparse type of integer option ``name``: an int within the
    list's bounds."""
    option = OPTIONS[name]

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}")
        if not option["minimum"] <= value <= option["maximum"]:
            raise argparse.ArgumentTypeError(
                f"must be between {option['minimum']} and "
                f"{option['maximum']}, got {value}")
        return value
    return parse


def _option(command, name, flag=None, **overrides):
    """``command``'s flag for compile option ``name`` as the native option
    list declares it: its help, default (shown in the help), accepted
    values or bounds; ``flag`` when it is not ``--<option>``. A flag option
    on by default is turned off by ``--no-<option>``."""
    option = OPTIONS[name]
    default = compile_default(name)
    flag = flag or "--" + option["option"]
    kwargs = dict(help=option["description"], dest=name, default=default)
    if option["kind"] == "flag":
        if default:
            flag = "--no-" + option["option"]
        kwargs["action"] = "store_false" if default else "store_true"
    else:
        kwargs["metavar"] = None if option["values"] else _metavar(option)
        if option["values"]:
            kwargs["choices"] = option["values"]
        if option["kind"] == "integer":
            kwargs["type"] = int if option["values"] else _bounded(name)
        elif option["role"] == "location":
            kwargs["type"] = _path
        if default not in (None, ""):
            kwargs["help"] += f" (default: {default})"
    kwargs.update(overrides)
    command.add_argument(flag, **kwargs)


def _parser():
    parser = argparse.ArgumentParser(
        prog="python3 -m xpu_codegen",
        description="Compile MLIR or SPIR-V to Intel GPU native code with "
                    "measured GRF selection; compare two compilers' "
                    "decisions; inspect zebins.")
    commands = parser.add_subparsers(dest="command", required=True)

    _add_compile_command(commands)
    _cli_diff.add_diff_command(commands, _option, _path)

    inspect = commands.add_parser(
        "inspect", help="print the kernels of zebin files",
        description="Print each kernel's GRF count, SIMD width, scratch and "
                    "private memory (bytes per hardware thread) from the "
                    "zebin's .ze_info.")
    inspect.add_argument("files", nargs="+", metavar="FILE.zebin")
    inspect.set_defaults(run=_inspect)
    return parser


def _add_compile_command(commands):
    """The ``compile`` command."""
    compile_ = commands.add_parser(
        "compile", help="compile .mlir or .spv files to native code",
        description="Compile each INPUT (MLIR text: the whole "
                    "xpu-codegen-pipeline; SPIR-V: native code generation "
                    "only) and print a table per kernel. Several inputs "
                    "compile as one batch (identical ones once, the others "
                    "in parallel; k/N progress on a terminal); every good "
                    "binary is written even when others fail, and the exit "
                    "status is 1 if any failed. One input with one module: "
                    "OUT is the zebin (or a directory to put <module>.zebin "
                    "in); otherwise OUT is a directory of <module>.zebin. "
                    "Without -o, <module>.zebin files go to the current "
                    "directory.")
    compile_.add_argument("inputs", metavar="INPUT", nargs="+",
                          help="a .mlir or .spv file")
    _add_compiler_options(compile_)
    compile_.add_argument("-o", "--output", metavar="OUT", type=_path,
                          help="output zebin or directory")
    # The list's report option: the pass's JSON report, written here.
    _option(compile_, "report", metavar="REPORT.json")
    compile_.add_argument("-q", "--quiet", action="store_true",
                          help="print nothing on success")
    compile_.add_argument("--explain-changes", action="store_true",
                          help="say what changed since another compiler "
                               "compiled the same input with the same "
                               "options, from what the cache directory "
                               "keeps (nothing more is built)")
    compile_.set_defaults(run=_compile)


def _add_compiler_options(compile_):
    """``compile``'s options that are compile()'s: every one the option list
    has for it (COMPILE_OPTIONS), as the list declares it."""
    for name in COMPILE_OPTIONS:
        _option(compile_, name, flag="--" + keyword(name).replace("_", "-"))


def main(argv=None):
    """Runs the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    return args.run(args)
