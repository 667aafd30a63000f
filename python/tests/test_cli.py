"""`python3 -m xpu_codegen`: compile and inspect files from the shell."""

import io
import json
import re
from types import SimpleNamespace

import pytest

from conftest import ELF_MAGIC, EXAMPLES, INPUTS, run_cli

import xpu_codegen
from xpu_codegen import _cli

# The keys of the pass's report (DESIGN.md output contract).
MODULE_KEYS = {"module", "arch", "backend", "grf_mode", "n_regs", "spill_size",
               "build_flags", "cache", "attempts", "kernels"}
ATTEMPT_KEYS = {"grf_mode", "build_flags", "spill_size", "compile_ms"}
KERNEL_KEYS = {"name", "grf_count", "simd", "spill_size", "private_size",
               "n_spills"}


def check_report_format(report):
    assert report["version"] == 1
    for module in report["modules"]:
        assert MODULE_KEYS <= module.keys()
        for attempt in module["attempts"]:
            assert ATTEMPT_KEYS <= attempt.keys()
        for kernel in module["kernels"]:
            assert KERNEL_KEYS <= kernel.keys()


def test_compile_spirv_writes_zebin_and_report(tmp_path):
    out, report = tmp_path / "k.zebin", tmp_path / "r.json"
    result = run_cli("compile", INPUTS / "spill_small_only.spv", "--arch",
                     "pvc", "--grf-mode", "auto", "--cache-dir", "none",
                     "-o", out, "--report", report)
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:4] == ELF_MAGIC
    data = json.loads(report.read_text())
    check_report_format(data)
    [module] = data["modules"]
    assert (module["module"], module["grf_mode"], module["n_regs"]) == (
        "spill_small_only", "large", 256)
    assert [a["spill_size"] for a in module["attempts"]] == [9600, 0]
    # The table: one row per kernel.
    row = next(line.split() for line in result.stdout.splitlines()
               if line.startswith("spill_small_only "))
    assert row[:11] == ["spill_small_only", "spill_small_only", "pvc",
                        "large", "256", "256", "4", "32", "0", "0", "0"]
    assert f"wrote {out}" in result.stdout
    # No progress line when stderr is not a terminal.
    assert result.stderr == ""

    result = run_cli("inspect", out)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["kernel", "grf_count", "simd", "scratch",
                                "private", "spill", "code", "bytes"]
    assert lines[2].split()[:5] == ["spill_small_only", "256", "32", "0", "0"]


def test_compile_without_output_uses_module_names(tmp_path):
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir", "none",
                     "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert (tmp_path / "nospill.zebin").read_bytes()[:4] == ELF_MAGIC


def test_compile_mlir_with_several_modules_writes_a_directory(tmp_path):
    out = tmp_path / "bins"
    result = run_cli("compile", EXAMPLES / "mixed_modes.mlir", "-o", out,
                     "--cache-dir", "none", "--report", tmp_path / "r.json")
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    check_report_format(report)
    names = sorted(m["module"] for m in report["modules"])
    assert len(names) >= 2
    assert sorted(p.name for p in out.iterdir()) == [
        f"{name}.zebin" for name in names]
    info = xpu_codegen.read_zebin(out / f"{names[0]}.zebin")
    assert info.kernels


def test_compile_error_exit_status_and_located_message(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("module {\n  %x = arith.bogus\n}\n")
    result = run_cli("compile", bad, "-o", tmp_path / "out")
    assert result.returncode == 1
    assert f"{bad}:2:" in result.stderr and "error:" in result.stderr
    assert not (tmp_path / "out").exists()


def test_bad_spirv_file_writes_an_error_report(tmp_path):
    bad = tmp_path / "bad.spv"
    bad.write_bytes(b"\x03\x02\x23\x07" + b"\xff" * 100)
    report = tmp_path / "r.json"
    result = run_cli("compile", bad, "--cache-dir", "none", "--report", report)
    assert result.returncode == 1
    assert "bad: error: module 'bad' for arch 'pvc' failed" in result.stderr
    [entry] = json.loads(report.read_text())["modules"]
    assert entry["module"] == "bad" and "error" in entry


def test_usage_errors(tmp_path):
    spv = INPUTS / "nospill.spv"
    assert run_cli("compile", spv, "--grf-mode", "huge").returncode == 2
    assert run_cli("compile", spv, "--jobs", "-3").returncode == 2
    result = run_cli("compile", spv, "--arch", "nope", cwd=tmp_path)
    assert result.returncode == 1
    assert "valid archs:" in result.stderr
    result = run_cli("compile", tmp_path / "missing.spv")
    assert result.returncode == 1 and "cannot read" in result.stderr
    assert run_cli().returncode == 2


def test_inspect_rejects_non_zebins(tmp_path):
    result = run_cli("inspect", INPUTS / "nospill.spv")
    assert result.returncode == 1
    assert "not a readable zebin" in result.stderr


def test_inspect_checked_in_zebins():
    result = run_cli("inspect", INPUTS / "spill_both.pvc.small.zebin",
                     INPUTS / "private_array.pvc.small.zebin")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split() for line in
            result.stdout.splitlines() if line and line[0].islower()
            and not line.startswith("kernel")}
    assert rows["spill_both"][1:4] == ["128", "32", "65536"]
    assert rows["private_array"][1:4] == ["128", "32", "32768"]


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_terminal():
    import time

    terminal = FakeTerminal()
    with _cli._Progress("k.spv (1 kernel)", stream=terminal, delay=0):
        # The line comes at the first tick (0.1 s): waited for, not slept
        # for, so that a loaded machine only makes this slower.
        deadline = time.monotonic() + 60
        while ("compiling" not in terminal.getvalue()
               and time.monotonic() < deadline):
            time.sleep(0.05)
    assert "xpu_codegen: compiling k.spv (1 kernel)" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")

    pipe = io.StringIO()
    with _cli._Progress("k.spv", stream=pipe, delay=0):
        time.sleep(0.25)  # Ticks a terminal would have seen.
    assert pipe.getvalue() == ""


def test_progress_label_counts_kernels():
    data = (INPUTS / "nospill.spv").read_bytes()
    assert _cli._progress_label("nospill.spv", data) == (
        "nospill.spv (1 kernel)")
    text = (EXAMPLES / "mixed_modes.mlir").read_bytes()
    assert _cli._progress_label("m.mlir", text) == (
        "m.mlir (2 kernels in 1 module)")


def test_compile_cache_url(tmp_path):
    """--cache-url: an invalid URL is a usage error naming it; a server that
    is not there only warns, and the binary is written."""
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir",
                     tmp_path / "cache", "--cache-url", "http://cache:6379",
                     "-q", cwd=tmp_path)
    assert result.returncode == 2
    assert "error: invalid cache-url 'http://cache:6379': the scheme must " \
           "be redis://" in result.stderr
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir",
                     tmp_path / "cache", "--cache-url",
                     f"redis://127.0.0.1:{port}", "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "shared compile cache unavailable" in result.stderr
    assert (tmp_path / "nospill.zebin").read_bytes()[:4] == ELF_MAGIC


def test_compile_no_link_writes_one_zebin_per_module(tmp_path):
    source = (EXAMPLES.parent / "test" / "Transforms" / "LinkModules" /
              "Inputs" / "mixed.mlir")
    kernels = {}
    for flag in ([], ["--no-link"]):
        out = tmp_path / ("alone" if flag else "linked")
        result = run_cli("compile", source, "-o", out, "--cache-dir", "none",
                         *flag)
        assert result.returncode == 0, result.stderr
        kernels[bool(flag)] = {
            p.stem: sorted(k.name for k in xpu_codegen.read_zebin(p).kernels)
            for p in out.iterdir()}
    # Linked, a's binary holds c's kernel too; with --no-link, only its own.
    assert kernels[False]["a"] == ["acc4", "acc4_c"]
    assert kernels[True]["a"] == ["acc4"]
    assert kernels[True]["c"] == ["acc4"]


def test_batch_output_names_never_collide(tmp_path):
    # d1/x and d2/x got x.zebin and x-2.zebin, and a module really named
    # x-2 overwrote the second one (exit status 0).
    for path, kernel in (("d1/x.spv", "nospill"), ("d2/x.spv",
                         "spill_small_only"), ("x-2.spv", "private_array")):
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_bytes((INPUTS / f"{kernel}.spv").read_bytes())
    out = tmp_path / "out"
    result = run_cli("compile", "d1/x.spv", "d2/x.spv", "x-2.spv", "-o", out,
                     "--cache-dir", "none", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    kernels = {p.name: [k.name for k in xpu_codegen.read_zebin(p).kernels]
               for p in out.iterdir()}
    assert kernels == {"x.zebin": ["nospill"],
                       "x-3.zebin": ["spill_small_only"],
                       "x-2.zebin": ["private_array"]}
    assert sorted(re.findall(r"wrote (\S+)", result.stdout)) == [
        str(out / name) for name in ("x-2.zebin", "x-3.zebin", "x.zebin")]


def test_output_names_differ_in_more_than_case_and_sanitizing(tmp_path):
    # Names that collide on a case-insensitive file system or only once
    # sanitized; identical inputs (deduplicated) still get their own file.
    names = ["k.spv", "K.spv", "k-2.spv", "a b.spv", "a_b.spv", "a?b.spv"]
    for name in names:
        (tmp_path / name).write_bytes((INPUTS / "nospill.spv").read_bytes())
    result = run_cli("compile", *names, "-o", "out", "--cache-dir", "none",
                     "-q", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted([
        "k.zebin", "K-3.zebin", "k-2.zebin", "a_b.zebin", "a_b-2.zebin",
        "a_b-3.zebin"])
    modules = [SimpleNamespace(name=n) for n in
               ("x", "X", "x-2", "x", "", "module", "a/b", "a_b")]
    assert _cli._file_names(modules) == [
        "x.zebin", "X-3.zebin", "x-2.zebin", "x-4.zebin", "module.zebin",
        "module-2.zebin", "a_b.zebin", "a_b-2.zebin"]


def test_empty_report_or_output_path_is_a_usage_error(tmp_path):
    # --report "" was silently skipped with exit status 0.
    for option in ("--report", "-o"):
        result = run_cli("compile", INPUTS / "nospill.spv", option, "",
                         "--cache-dir", "none", cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert "needs a path, got an empty one" in result.stderr
        assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="the output path is empty"):
        xpu_codegen.write_report("", [])


def test_value_lists_come_from_the_native_option_list():
    """The accepted values of compile() and of the CLI's flags are the ones
    the native list declares (CodegenOptions.def), written nowhere else."""
    listed = {option["name"]: tuple(option["values"])
              for option in xpu_codegen._xpu_codegen.codegen_options()}
    assert xpu_codegen.GRF_MODES == listed["grf_mode"]
    assert xpu_codegen.BACKENDS == listed["backend"]
    assert xpu_codegen.AUTO_STRATEGIES == listed["auto_strategy"]
    assert xpu_codegen.VALIDATE == listed["validate_spirv"]
    assert listed["n_regs_default"] == (0, 128)
    compile_ = next(action.choices["compile"]
                    for action in _cli._parser()._actions
                    if getattr(action, "choices", None)
                    and "compile" in action.choices)
    choices = {action.dest: tuple(action.choices)
               for action in compile_._actions if action.choices}
    assert choices == {"grf_mode": listed["grf_mode"],
                       "backend": listed["backend"],
                       "auto_strategy": listed["auto_strategy"],
                       "validate_spirv": listed["validate_spirv"],
                       "n_regs_default": listed["n_regs_default"]}


def test_spirv_warnings_name_the_file_and_the_entry_point(tmp_path):
    # SPIR-V has no source locations: a diagnostic about one of its kernels
    # names the input file and the entry point (issue 40).
    spv = INPUTS / "spill_small_only.spv"
    result = run_cli("compile", spv, "--arch", "pvc", "--grf-mode", "small",
                     "--cache-dir", "none", "-o", tmp_path / "k.zebin")
    assert result.returncode == 0, result.stderr
    assert re.search("^" + re.escape(str(spv)) + r": warning: kernel "
                     r"'spill_small_only' spills \d+ bytes per thread",
                     result.stderr, re.M), result.stderr


def test_front_ends_agree_with_the_option_list():
    """Walks the native option list (CodegenOptions.def): every option
    Python takes (COMPILE_OPTIONS, all of them in the list) is a keyword of
    compile() with the list's default (a location's "" is None: the
    environment's or the default place; an unset sub-group size is None),
    and the CLI's compile command has a flag for it with the same default,
    the list's help and its values."""
    import inspect
    from xpu_codegen import _options
    parameters = inspect.signature(xpu_codegen.compile).parameters
    compile_ = next(action.choices["compile"]
                    for action in _cli._parser()._actions
                    if getattr(action, "choices", None)
                    and "compile" in action.choices)
    flags = {action.dest: action for action in compile_._actions}
    listed = {o["name"]: o for o in xpu_codegen._xpu_codegen.codegen_options()}
    assert set(_options.COMPILE_OPTIONS) <= set(listed)
    for name in _options.COMPILE_OPTIONS:
        option = listed[name]
        default = option["default"]
        if option["role"] == "location" or default == -1:
            default = None
        keyword = _options.keyword(name)
        assert parameters[keyword].default == default, name
        assert parameters[keyword].kind == inspect.Parameter.KEYWORD_ONLY
        assert flags[name].default == default, name
        assert flags[name].help.startswith(option["description"]), name
        if option["kind"] == "choice":
            assert list(flags[name].choices) == option["values"], name
        # help(compile) lists it with the list's default and help.
        first_words = " ".join(option["description"].split()[:4])
        assert f"``{keyword}`` = {default!r}" in xpu_codegen.compile.__doc__
        assert first_words in " ".join(xpu_codegen.compile.__doc__.split())
    # compile() takes nothing else but its source's name and file name.
    assert set(parameters) == {"source", "name", "filename"} | {
        _options.keyword(n) for n in _options.COMPILE_OPTIONS}
    with pytest.raises(TypeError, match="unexpected keyword argument 'opt'"):
        xpu_codegen.compile(b"", opt=1)


def test_front_ends_refuse_integers_beyond_the_list_bounds():
    """Every integer option compile() takes is refused one past either of
    the list's bounds (its type's range narrowed by its check: 2**40 for
    the time and memory limits, 1024 jobs), by Python and by the CLI, and
    accepted at the bound by Python's checks."""
    import inspect
    from xpu_codegen import _options
    parameters = inspect.signature(xpu_codegen.compile).parameters
    source = (INPUTS / "nospill.spv").read_bytes()
    checked = 0
    for option in xpu_codegen._xpu_codegen.codegen_options():
        name = option["name"]
        if option["kind"] != "integer" or name not in parameters:
            continue
        low, high = option["minimum"], option["maximum"]
        assert low <= option["default"] <= high, name
        for value in (low - 1, high + 1):
            with pytest.raises(ValueError, match=name):
                xpu_codegen.compile(source, cache_dir="none",
                                    **{name: value})
        if not option["values"] and name != "subgroup_size":
            assert _options._check_int(name, high) == high
        result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir",
                         "none", "--" + option["option"], str(high + 1),
                         "-o", "/dev/null")
        assert result.returncode != 0, (name, result.stderr)
        assert option["option"].replace("-", "_") in result.stderr \
            or option["option"] in result.stderr, (name, result.stderr)
        checked += 1
    assert checked >= 6, checked
    timeout = next(o for o in xpu_codegen._xpu_codegen.codegen_options()
                   if o["name"] == "timeout_ms")
    assert (timeout["minimum"], timeout["maximum"]) == (0, 2**40)
