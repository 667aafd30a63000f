"""Host safety: hostile files, outputs, limits, threads, fork and exit.

Each test here once failed: it names the defect it guards against.
"""

import errno
import json
import os
import re
import stat
import subprocess
import sys

import pytest

import xpu_codegen
from conftest import EXAMPLES, INPUTS, run_cli, spirv, subprocess_env

LONG_NAME = "a_rather_long_module_name_1234567"


def test_long_module_name_in_option_errors():
    # The location of an early error was a dangling view of a temporary
    # string: names of 16+ characters printed as garbage.
    with pytest.raises(xpu_codegen.CompileError) as info:
        xpu_codegen.compile(spirv("nospill"), arch="bogus", name=LONG_NAME,
                            cache_dir="none")
    assert str(info.value).startswith(
        f"{LONG_NAME}: error: unknown Intel GPU arch 'bogus'"), str(info.value)


def _zebin_with_ze_info(ze_info: bytes) -> bytes:
    """A real zebin whose .ze_info section holds `ze_info` instead (the
    section is moved to the end of the file; its header is patched)."""
    import struct

    data = bytearray((INPUTS / "nospill.pvc.small.zebin").read_bytes())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    strtab_off, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize
                                     + 0x18)
    for i in range(shnum):
        header = shoff + i * shentsize
        name_off, = struct.unpack_from("<I", data, header)
        end = data.index(b"\0", strtab_off + name_off)
        if bytes(data[strtab_off + name_off:end]) == b".ze_info":
            struct.pack_into("<QQ", data, header + 0x18, len(data),
                             len(ze_info))
            return bytes(data) + ze_info
    raise AssertionError("no .ze_info section")


def test_deeply_nested_ze_info_is_a_clean_error(tmp_path):
    # 300,000 levels (1.5 MB) overflowed the stack in LLVM's YAML parser.
    deep = _zebin_with_ze_info(b"kernels: " + b"- " * 300000 + b"x\n")
    with pytest.raises(ValueError, match="nests deeper than"):
        xpu_codegen.read_zebin(deep)
    path = tmp_path / "deep.zebin"
    path.write_bytes(_zebin_with_ze_info(b"[" * 300000))
    result = run_cli("inspect", path)
    assert result.returncode == 1, result.stderr
    assert re.search(r"deep\.zebin: .*nests deeper than", result.stderr), \
        result.stderr


@pytest.mark.parametrize("option", ["timeout_ms", "memory_limit_mb"])
@pytest.mark.parametrize("value", [-1, 2**40 + 1, 2**63])
def test_limits_are_range_checked(option, value):
    with pytest.raises(ValueError, match=option):
        xpu_codegen.compile(spirv("nospill"), cache_dir="none",
                            **{option: value})


def test_limits_reach_the_worker():
    # The limits are settable from Python: a 1 ms limit kills the compile.
    with pytest.raises(xpu_codegen.CompileError,
                       match="exceeded the 1 ms time limit"):
        xpu_codegen.compile(spirv("spill_both"), cache_dir="none",
                            timeout_ms=1)
    [module] = xpu_codegen.compile(spirv("nospill"), cache_dir="none",
                                   timeout_ms=2**40, memory_limit_mb=2**40)
    assert module.n_regs == 128


def test_cli_limits(tmp_path):
    result = run_cli("compile", INPUTS / "spill_both.spv", "--cache-dir",
                     "none", "--timeout-ms", "1", "-o", tmp_path / "x.zebin")
    assert result.returncode == 1, result.stderr
    assert "exceeded the 1 ms time limit" in result.stderr
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir", "none",
                     "--memory-limit-mb", str(2**44), "-o",
                     tmp_path / "y.zebin")
    assert result.returncode == 2, result.stderr
    # The bound is the option list's (2**40 MiB), named by the flag.
    assert f"--memory-limit-mb: must be between 0 and {2**40}" \
        in result.stderr, result.stderr


# One module that IGC rejects on tgllp (f64) next to one that compiles.
MIXED = """\
module attributes {gpu.container_module} {
  gpu.module @doubles {
    gpu.func @scale(%buf: memref<1024xf64>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf64>
      %d = arith.addf %v, %v : f64
      memref.store %d, %buf[%i] : memref<1024xf64>
      gpu.return
    }
  }
  gpu.module @floats {
    gpu.func @scale(%buf: memref<1024xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %buf[%i] : memref<1024xf32>
      %d = arith.addf %v, %v : f32
      memref.store %d, %buf[%i] : memref<1024xf32>
      gpu.return
    }
  }
}
"""


def test_compile_error_keeps_the_good_modules():
    # A failing module used to lose every other module's binary.
    with pytest.raises(xpu_codegen.CompileError) as info:
        xpu_codegen.compile(MIXED, arch="tgllp", cache_dir="none")
    error = info.value
    assert "Double type is not supported" in error.diagnostics
    assert [m.name for m in error.modules] == ["floats"]
    assert error.modules[0].binary.startswith(b"\x7fELF")
    assert [e["module"] for e in error.report_entries] == ["doubles",
                                                           "floats"]


def test_cli_writes_every_good_module_and_exits_1(tmp_path):
    source = tmp_path / "mixed.mlir"
    source.write_text(MIXED)
    out = tmp_path / "out"
    report = tmp_path / "report.json"
    result = run_cli("compile", source, "--arch", "tgllp", "--cache-dir",
                     "none", "-o", out, "--report", report)
    assert result.returncode == 1, result.stderr
    assert "Double type is not supported" in result.stderr
    assert (out / "floats.zebin").read_bytes().startswith(b"\x7fELF")
    assert not (out / "doubles.zebin").exists()
    entries = json.loads(report.read_text())["modules"]
    assert [e["module"] for e in entries] == ["doubles", "floats"]
    assert "error" in entries[0] and "error" not in entries[1]


def test_failed_compile_and_unwritable_report_is_no_traceback(tmp_path):
    source = tmp_path / "mixed.mlir"
    source.write_text(MIXED)
    report = tmp_path / "no" / "such" / "dir" / "report.json"
    result = run_cli("compile", source, "--arch", "tgllp", "--cache-dir",
                     "none", "-o", tmp_path / "out", "--report", report)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr, result.stderr
    assert f"error: cannot write {report}: No such file or directory" in \
        result.stderr, result.stderr


@pytest.fixture(scope="module")
def nospill_module():
    [module] = xpu_codegen.compile(spirv("nospill"), cache_dir="none")
    return module


def test_outputs_write_through_symlinks(tmp_path, nospill_module):
    # A report or -o given a symlink used to replace the link by a file.
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target.name)
    xpu_codegen.write_report(link, [nospill_module])
    assert link.is_symlink()
    assert json.loads(target.read_text())["modules"][0]["module"] == "module"
    # A dangling link is followed too: its target is created.
    dangling = tmp_path / "dangling.zebin"
    dangling.symlink_to("made.zebin")
    nospill_module.write(dangling)
    assert dangling.is_symlink()
    assert (tmp_path / "made.zebin").read_bytes() == nospill_module.binary


def test_outputs_are_atomic(tmp_path, nospill_module, monkeypatch):
    # -o was not atomic: a failed write left a truncated zebin and lost the
    # previous file.
    from xpu_codegen import _output
    path = tmp_path / "k.zebin"
    path.write_bytes(b"previous")
    path.chmod(0o640)

    def fail(fd, data):
        os.write(fd, data[:10])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(_output, "_write_all", fail)
    with pytest.raises(OSError) as info:
        nospill_module.write(path)
    assert info.value.filename == str(path)
    assert path.read_bytes() == b"previous"
    assert os.listdir(tmp_path) == ["k.zebin"]  # no temporary file left
    monkeypatch.undo()
    nospill_module.write(path)
    assert path.read_bytes() == nospill_module.binary
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # permissions kept


def test_outputs_never_replace_devices(tmp_path, nospill_module):
    # As root, --report /dev/full replaced the device node with a file.
    full = tmp_path / "full"
    try:
        os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except PermissionError:
        full = "/dev/full"
    with pytest.raises(OSError) as info:
        xpu_codegen.write_report(full, [nospill_module])
    assert info.value.errno == errno.ENOSPC
    assert info.value.filename == str(full)
    assert stat.S_ISCHR(os.stat(full).st_mode)
    nospill_module.write("/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir", "none",
                     "-o", full)
    assert result.returncode == 1
    assert f"error: cannot write {full}: No space left on device" in \
        result.stderr, result.stderr
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_output_errors_name_the_path(tmp_path):
    # The CLI said "cannot write None".
    out = tmp_path / "missing" / "dir" / "k.zebin"
    result = run_cli("compile", INPUTS / "nospill.spv", "--cache-dir", "none",
                     "-o", out)
    assert result.returncode == 1
    assert f"error: cannot write {out}: No such file or directory" in \
        result.stderr, result.stderr


EXIT_SCRIPT = r"""
import sys, threading, time
import xpu_codegen
spv = open(sys.argv[1], "rb").read()
mlir = open(sys.argv[2]).read()

def spirv_loop(mode):
    while True:
        try:
            xpu_codegen.compile(spv, grf_mode=mode, cache_dir="none")
        except xpu_codegen.CompileError:
            pass

def mlir_loop():
    while True:
        try:
            xpu_codegen.compile(mlir, cache_dir="none")
        except xpu_codegen.CompileError:
            pass

for target, args in ((spirv_loop, ("small",)), (spirv_loop, ("large",)),
                     (spirv_loop, ("auto",)), (mlir_loop, ())):
    threading.Thread(target=target, args=args, daemon=True).start()
time.sleep(float(sys.argv[3]))
print("exiting", flush=True)
"""


@pytest.mark.parametrize("delay", [0.3, 1.0, 2.5])
def test_exit_while_daemon_threads_compile(tmp_path, delay):
    # Static destructors tore the shared worker pool down under running
    # threads: "double free or corruption", "LLVM ERROR: out of memory".
    script = tmp_path / "exit.py"
    script.write_text(EXIT_SCRIPT)
    result = subprocess.run(
        [sys.executable, str(script), str(INPUTS / "spill_both.spv"),
         str(EXAMPLES / "readme.mlir"), str(delay)],
        capture_output=True, text=True, timeout=300, env=subprocess_env())
    assert result.returncode == 0, result.stderr[-2000:]
    assert "exiting" in result.stdout
    for bad in ("double free", "corruption", "LLVM ERROR", "Segmentation",
                "Aborted", "Traceback", "terminate called"):
        assert bad not in result.stderr, result.stderr[-2000:]


def _worker_dirs_of(pid):
    """{worker pid: working directory} of the compiler workers that are
    children of `pid` (read from /proc)."""
    dirs = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[1]) != pid:
                continue
            with open(f"/proc/{entry}/comm") as f:
                if not f.read().startswith("xpu-compile"):
                    continue
            dirs[int(entry)] = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
    return dirs


def _live_workers_keep_their_dirs(dirs):
    """Idle workers may be reaped meanwhile (their directories go with
    them); a worker still alive must still have its directory."""
    for pid, path in dirs.items():
        alive = os.path.exists(f"/proc/{pid}")
        assert os.path.isdir(path) or not alive, (pid, path)


def test_forked_child_never_touches_the_parents_workers():
    # A child that compiled deleted its parent's live workers' directories.
    [before] = xpu_codegen.compile(spirv("nospill"), cache_dir="none",
                                   grf_mode="small")
    dirs = _worker_dirs_of(os.getpid())
    assert dirs and all(os.path.isdir(d) for d in dirs.values()), dirs
    child = os.fork()
    if child == 0:
        status = 1
        try:
            [module] = xpu_codegen.compile(spirv("nospill"),
                                           cache_dir="none",
                                           grf_mode="small")
            status = 0 if module.binary == before.binary else 2
        finally:
            os._exit(status)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    _live_workers_keep_their_dirs(dirs)
    # No worker of the child's became the parent's.
    assert set(_worker_dirs_of(os.getpid())) <= set(dirs)
    # The parent's workers still serve it.
    [after] = xpu_codegen.compile(spirv("nospill"), cache_dir="none",
                                  grf_mode="small")
    assert after.binary == before.binary


def test_huge_spirv_is_not_validated_in_the_host():
    # SPIRV-Tools in the host took 4.9 GB RSS and 37 s on a 100 MB module:
    # beyond the cap it is refused (strict) or left to the isolated worker
    # with a warning (warn).
    import resource

    big = spirv("nospill") + b"\x00\x00\x01\x00" * ((17 << 20) // 4)
    with pytest.raises(xpu_codegen.CompileError,
                       match="too large to validate in the host"):
        xpu_codegen.compile(big, cache_dir="none", validate="strict")
    import warnings

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            [module] = xpu_codegen.compile(big, cache_dir="none",
                                           validate="warn")
            diagnostics = "\n".join(str(w.message) for w in caught)
            diagnostics += module.report_entry.get("validation", "")
        except xpu_codegen.CompileError as error:
            diagnostics = error.diagnostics + json.dumps(
                error.report_entries)
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert "too large to validate in the host" in diagnostics, diagnostics
    assert after - before < 512 * 1024, (before, after)  # KiB


# Special files: every input is read only when it is a regular file within
# its cap. Each run has a timeout (a FIFO once blocked forever) and a 3 GB
# address-space limit (/dev/zero once grew to 23 GB before the OOM killer).
# Under AddressSanitizer (tools/ci-sanitize preloads its runtime) there is no
# address-space limit: ASan reserves terabytes of shadow at start-up.
AS_LIMIT = 3_000_000_000
SANITIZED = "libasan" in os.environ.get("LD_PRELOAD", "")


def run_limited(*argv, timeout=120):
    """`python3 ARGV` under the address-space limit; a hang fails."""
    import resource

    def limit():
        if SANITIZED:
            return
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, hard))

    try:
        return subprocess.run([sys.executable, *map(str, argv)],
                              capture_output=True, text=True,
                              timeout=timeout, env=subprocess_env(),
                              preexec_fn=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hung: python3 {' '.join(map(str, argv))}")


def special_file(kind, directory):
    """A path of the given kind: a device, a FIFO nobody writes, a
    directory, a symlink loop, a sparse file over every cap."""
    if kind.startswith("/dev/"):
        return kind
    path = directory / kind
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    elif kind == "loop":
        os.symlink(path, path)
    elif kind == "link-to-zero":
        os.symlink("/dev/zero", path)
    elif kind.startswith("sparse"):  # sparse-3g.spv, sparse-2g.mlir
        with open(path, "wb") as f:
            f.truncate(int(kind[7]) << 30)
    return path


SPECIAL = ["/dev/zero", "/dev/full", "/dev/null", "fifo", "directory", "loop",
           "link-to-zero", "sparse-3g.zebin"]
REASONS = {"/dev/zero": "a character device, not a regular file",
           "/dev/full": "a character device, not a regular file",
           "/dev/null": "a character device, not a regular file",
           "link-to-zero": "a character device, not a regular file",
           "fifo": "a FIFO, not a regular file",
           "directory": "Is a directory",
           "loop": "Too many levels of symbolic links",
           "sparse-3g.zebin": "3221225472 bytes is over the 64 MiB limit "
                              "for zebins"}


@pytest.mark.parametrize("kind", SPECIAL)
def test_read_zebin_reads_regular_files_only(tmp_path, kind):
    path = special_file(kind, tmp_path)
    result = run_limited("-c", "import sys, xpu_codegen\n"
                         "try: xpu_codegen.read_zebin(sys.argv[1])\n"
                         "except OSError as e: print(e); sys.exit(3)", path)
    assert result.returncode == 3, result.stderr
    assert REASONS[kind] in result.stdout and str(path) in result.stdout


@pytest.mark.parametrize("kind", SPECIAL)
def test_inspect_reads_regular_files_only(tmp_path, kind):
    path = special_file(kind, tmp_path)
    result = run_limited("-m", "xpu_codegen", "inspect", path)
    assert result.returncode == 1, result.stderr
    assert result.stderr == f"error: cannot read {path}: {REASONS[kind]}\n"


@pytest.mark.parametrize("kind, reason", [
    ("/dev/zero", "a character device, not a regular file"),
    ("fifo", "a FIFO, not a regular file"),
    ("sparse-3g.spv", "3221225472 bytes is over the 256 MiB limit for "
                      "sources"),
    ("sparse-2g.mlir", "2147483648 bytes is over the 256 MiB limit for "
                       "sources"),
])
def test_compile_reads_bounded_regular_files(tmp_path, kind, reason):
    path = special_file(kind, tmp_path)
    good = INPUTS / "nospill.spv"
    result = run_limited("-m", "xpu_codegen", "compile", path, good,
                         "--cache-dir", "none", "-o", tmp_path / "out")
    assert result.returncode == 1, result.stderr
    assert f"error: cannot read {path}: {reason}\n" in result.stderr
    # The good input still compiles.
    assert (tmp_path / "out" / "nospill.zebin").exists()
    # The Python API's readers too.
    result = run_limited("-c", "import sys, pathlib, xpu_codegen\n"
                         "for call in (xpu_codegen.compile_file,\n"
                         "             lambda p: xpu_codegen.compile_many(\n"
                         "                 [pathlib.Path(p)])):\n"
                         "    try: call(sys.argv[1])\n"
                         "    except OSError as e: print(e)", path)
    assert result.stdout.count(reason) == 2, result.stderr


def test_a_file_that_grows_while_read_is_cut_off(tmp_path, monkeypatch):
    from xpu_codegen import _input
    path = tmp_path / "grows.zebin"
    path.write_bytes(b"x" * 100)
    real_fstat = os.fstat
    monkeypatch.setattr(_input.os, "fstat", lambda fd: os.stat_result(
        real_fstat(fd)[:6] + (10,) + real_fstat(fd)[7:]))
    with pytest.raises(OSError, match="grew over the 0 MiB limit for tests "
                                      "while read") as info:
        _input.read_input_file(path, 50, "tests")
    assert info.value.errno == errno.EFBIG
    assert _input.read_input_file(path, 100, "tests") == b"x" * 100


def test_huge_compiler_log_is_bounded_in_the_report(tmp_path):
    # A compiler that printed 200 MB once put all of it in the report.
    env = subprocess_env()
    env.update(XPU_CODEGEN_WORKER=str(INPUTS.parent / "Worker" /
                                      "fake-worker.py"),
               XPU_FAKE_WORKER="huge-log", XPU_FAKE_WORKER_LOG_MB="64")
    report = tmp_path / "r.json"
    result = subprocess.run(
        [sys.executable, "-m", "xpu_codegen", "compile", INPUTS / "nospill.spv",
         "--backend", "ocloc", "--cache-dir", "none", "--report", report,
         "-o", tmp_path / "out"],
        capture_output=True, text=True, timeout=600, env=env)
    assert result.returncode == 1, result.stderr[-2000:]
    [entry] = json.loads(report.read_text())["modules"]
    error = entry["error"]
    assert "first line of the log" in error and "last line of the log" in error
    dropped = re.search(r"\n\[\.\.\. (\d+) bytes of the build log dropped "
                        r"\.\.\.\]\n", error)
    assert dropped and int(dropped[1]) > (63 << 20), error[-300:]
    assert len(error) < (64 << 10) + 1000
    assert len(result.stderr) < (64 << 10) + 2000


_CACHE_HIT = ('module attributes {gpu.container_module} {\n'
              'gpu.binary @hit {xpu.module_cache_hit = #xpu.module_cache_hit<'
              'report = "REPORT", diagnostics = DIAGNOSTICS>} '
              '[#gpu.object<#xpu.target<arch = "pvc", grf_mode = small>, '
              '"\\07">]\n}')


@pytest.mark.parametrize("report", [
    '[{\\"module\\": \\"hit\\", \\"kernels\\": [1]}]',
    '[{\\"module\\": \\"hit\\"}]',
    '[{\\"error\\": \\"x\\"}]',
    '[{\\"module\\": \\"hit\\", \\"arch\\": \\"pvc\\", \\"error\\": \\"x\\"}]',
])
def test_cache_hit_reports_the_verifier_takes_are_readable(report):
    # Reports the verifier accepted (an array of objects) made compile()
    # raise KeyError/TypeError; the verifier now holds them to the schema
    # every reader relies on: a located CompileError.
    source = _CACHE_HIT.replace("REPORT", report).replace("DIAGNOSTICS", "[]")
    with pytest.raises(xpu_codegen.CompileError, match="cache hit report"):
        xpu_codegen.compile(source, arch="pvc", cache_dir="none")


def test_deeply_nested_cache_hit_report_is_a_clean_error():
    # 2.5 million '[' in the report overflowed the stack in LLVM's JSON
    # parser (SIGSEGV), under the verifier, in xpu-opt and Python.
    source = _CACHE_HIT.replace("REPORT", "[" * 2500000).replace(
        "DIAGNOSTICS", "[]")
    with pytest.raises(xpu_codegen.CompileError,
                       match="nested deeper than 64 levels"):
        xpu_codegen.compile(source, arch="pvc", cache_dir="none")


def test_replayed_error_is_refused():
    # A replayed error was printed yet xpu-opt exited 0; a cache hit never
    # holds an error (failed modules are not cached).
    source = _CACHE_HIT.replace("REPORT", "[]").replace(
        "DIAGNOSTICS", '[#xpu.replayed_diagnostic<severity = error, '
        'message = "replayed err">]')
    with pytest.raises(xpu_codegen.CompileError):
        xpu_codegen.compile(source, arch="pvc", cache_dir="none")


def test_jobs_is_bounded_in_every_front_end(tmp_path):
    # jobs=100000 started workers until the process table was full.
    with pytest.raises(ValueError, match="jobs"):
        xpu_codegen.compile(spirv("nospill"), name="m", arch="pvc",
                            cache_dir="none", jobs=1025)
    path = tmp_path / "m.mlir"
    path.write_text("module {}")
    result = run_cli("compile", path, "--arch", "pvc", "--jobs", "100000")
    assert result.returncode == 2, result.stderr
    assert "jobs" in result.stderr
