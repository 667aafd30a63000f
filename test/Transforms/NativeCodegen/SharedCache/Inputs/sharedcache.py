"""Helpers of the shared cache tier tests: a private redis-server on a free
localhost port (no persistence, files only in the test's directory), fake
servers that misbehave, a proxy that kills the server mid-run, and xpu-opt
runs with a worker wrapper that counts worker starts.

Never used with a shared server: every test starts its own.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, *[".."] * 5))
NATIVE_INPUTS = os.path.join(SRC, "test", "Inputs", "Native")
SPIRV_TO_BINARY = os.path.join(SRC, "test", "Transforms", "NativeCodegen",
                               "Inputs", "spirv-to-binary.py")


# The shared tier's credentials, TLS files and keys: only what a test sets.
SECURITY_VARIABLES = tuple("XPU_CODEGEN_CACHE_" + v for v in (
    "PASSWORD", "PASSWORD_FILE", "TLS_CA", "TLS_CERT", "TLS_KEY", "SIGN_KEY",
    "TRUST"))


def child_env(**extra):
    """The environment of the children: never the sanitizer runtime
    preloaded into this Python (redis-server is not instrumented)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_PRELOAD", "XPU_CODEGEN_CACHE_URL")
           and k not in SECURITY_VARIABLES}
    # A loaded machine must not make the tier's budget drop a private
    # server (slow.test sets its own).
    env["XPU_CODEGEN_CACHE_BUDGET_MS"] = "600000"
    env.update({k: str(v) for k, v in extra.items()})
    return env


def die_with_parent():
    """preexec_fn of servers: killed when the test process dies, even when
    it crashes before stopping them."""
    import ctypes
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def encode(*args):
    out = b"*%d\r\n" % len(args)
    for arg in args:
        if isinstance(arg, str):
            arg = arg.encode()
        out += b"$%d\r\n%s\r\n" % (len(arg), arg)
    return out


def read_reply(f):
    """One RESP2 reply from a file object (the test's own client)."""
    line = f.readline()
    if not line:
        raise EOFError("connection closed")
    kind, rest = line[:1], line[1:-2]
    if kind in (b"+", b"-"):
        return rest.decode() if kind == b"+" else RuntimeError(rest.decode())
    if kind == b":":
        return int(rest)
    if kind == b"$":
        n = int(rest)
        if n < 0:
            return None
        data = f.read(n + 2)
        return data[:-2]
    if kind == b"*":
        return [read_reply(f) for _ in range(int(rest))]
    raise ValueError(f"bad reply {line!r}")


class RedisServer:
    """A private redis-server: its port is free, its directory is `dir`, and
    it saves nothing."""

    def __init__(self, dir, *extra):
        os.makedirs(dir, exist_ok=True)
        self.dir = dir
        for attempt in range(5):
            self.port = free_port()
            self.log = open(os.path.join(dir, f"redis-{self.port}.log"), "wb")
            self.process = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind",
                 "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                 dir, "--daemonize", "no", *self.server_args(), *extra],
                stdout=self.log, stderr=subprocess.STDOUT, env=child_env(),
                preexec_fn=die_with_parent)
            if self._wait_ready():
                return
            self.kill()
        raise RuntimeError("cannot start redis-server")

    def server_args(self):
        """More arguments for each start (a subclass's ports, users)."""
        return []

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def _wait_ready(self):
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                if self.command("PING") == "PONG":
                    return True
            except OSError:
                time.sleep(0.05)
        return False

    def command(self, *args):
        with socket.create_connection(("127.0.0.1", self.port), 5) as s:
            s.sendall(encode(*args))
            return read_reply(s.makefile("rb"))

    def keys(self, pattern="*"):
        return sorted(k.decode() for k in self.command("KEYS", pattern))

    def kill(self):
        if self.process.poll() is None:
            # A frozen (SIGSTOP) server must be thawed to die cleanly.
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
        self.process.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()


class FakeServer:
    """A TCP server that answers each command with `respond(args, count)`
    (bytes, or None to hang) and records the commands."""

    def __init__(self, respond):
        self.respond = respond
        self.commands = []
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def server_args(self):
        """More arguments for each start (a subclass's ports, users)."""
        return []

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def _accept(self):
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,),
                             daemon=True).start()

    def _serve(self, conn):
        f = conn.makefile("rb")
        try:
            while True:
                args = read_reply(f)
                self.commands.append([a.decode(errors="replace")
                                      if isinstance(a, bytes) else a
                                      for a in args])
                reply = self.respond(args, len(self.commands))
                if reply is None:
                    self.stop.wait(3600)
                    return
                conn.sendall(reply)
        except (OSError, EOFError, ValueError):
            pass
        finally:
            conn.close()

    def close(self):
        self.stop.set()
        self.sock.close()


class KillingProxy:
    """Forwards to `server` until the clients send their `count`-th command
    named `name` (e.g. GET): then SIGKILLs the server and closes every
    connection before forwarding it."""

    def __init__(self, server, name, count):
        self.server = server
        self.pattern = b"\r\n$%d\r\n%s\r\n" % (len(name), name.encode())
        self.left = count
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.killed = threading.Event()
        self.conns = []
        threading.Thread(target=self._accept, daemon=True).start()

    def server_args(self):
        """More arguments for each start (a subclass's ports, users)."""
        return []

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"

    def _accept(self):
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            with self.lock:
                if self.killed.is_set():
                    client.close()
                    continue
                upstream = socket.create_connection(("127.0.0.1",
                                                     self.server.port))
                self.conns += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream, True),
                             daemon=True).start()
            threading.Thread(target=self._pump,
                             args=(upstream, client, False),
                             daemon=True).start()

    def _pump(self, src, dst, counting):
        try:
            while True:
                data = src.recv(1 << 20)
                if not data:
                    break
                if counting:
                    with self.lock:
                        if self.killed.is_set():
                            return
                        self.left -= data.count(self.pattern)
                        if self.left <= 0:
                            self._kill()
                            return
                dst.sendall(data)
        except OSError:
            pass

    def _kill(self):
        self.killed.set()
        self.server.kill()
        for c in self.conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            c.close()
        self.sock.close()


def make_input(path, *names):
    """MLIR with one gpu.module per test/Inputs/Native/<name>.spv."""
    args = [f"{n}={os.path.join(NATIVE_INPUTS, n + '.spv')}" for n in names]
    with open(path, "wb") as f:
        subprocess.run([sys.executable, SPIRV_TO_BINARY, *args], stdout=f,
                       check=True, env=child_env())
    return path


def make_worker_wrapper(dir, real=None):
    """A worker that appends a line to dir/workers.log per start, then runs
    the real worker (the release one under sanitizers)."""
    real = real or os.environ.get("XPU_CODEGEN_WORKER") or \
        shutil.which("xpu-compile-worker")
    wrapper = os.path.join(dir, "worker")
    log = os.path.join(dir, "workers.log")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\necho started >> '{log}'\nexec '{real}' \"$@\"\n")
    os.chmod(wrapper, 0o755)
    return wrapper, log


def count_lines(path):
    try:
        with open(path) as f:
            return len(f.readlines())
    except FileNotFoundError:
        return 0


class Run:
    def __init__(self, returncode, stderr, output, report, seconds):
        self.returncode = returncode
        self.stderr = stderr
        self.output = output
        self.report = report
        self.seconds = seconds

    def cache_states(self):
        """The cache status of every attempt of every module."""
        return [a["cache"] for m in self.report["modules"]
                for a in m.get("attempts", [])]

    def warnings(self):
        return [l for l in self.stderr.splitlines() if "warning:" in l]


def xpu_opt(input, cache_dir, cache_url=None, name="run", worker=None,
            extra="", env=None, timeout=600):
    """Runs --xpu-native-codegen (backend=ocloc) on `input`."""
    out = os.path.join(os.path.dirname(cache_dir), name + ".mlir")
    report = os.path.join(os.path.dirname(cache_dir), name + ".json")
    options = f"backend=ocloc cache-dir={cache_dir} report={report}"
    if cache_url is not None:
        options += f" cache-url={cache_url}"
    options += " " + extra
    e = child_env(**(env or {}))
    if worker:
        e["XPU_CODEGEN_WORKER"] = worker
    start = time.time()
    p = subprocess.run(["xpu-opt", input, f"--xpu-native-codegen={options}",
                        "-o", out], env=e, capture_output=True, text=True,
                       timeout=timeout)
    seconds = time.time() - start
    output = open(out, "rb").read() if os.path.exists(out) else None
    rep = json.load(open(report)) if os.path.exists(report) else None
    return Run(p.returncode, p.stderr, output, rep, seconds)


def check(condition, message):
    if not condition:
        print(f"FAILED: {message}")
        sys.exit(1)
