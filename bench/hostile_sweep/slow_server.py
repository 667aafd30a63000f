#!/usr/bin/env python3
"""Hostile sweep dimension: a shared-cache server that answers every command
correctly, but late (issue 26 item 5). Each case is a private in-process
Redis stand-in (GET, SET [NX], EXISTS, EVAL unlock on a dict) whose delays
are drawn at random, 0 to 4.5 s a command (under the 5 s deadline), for
every command or only GETs, only SETs, only lock commands, or one command
in all; a cold run fills it, a warm run on an empty local cache reads it.

  tried    xpu-opt runs (the whole pipeline on a 6-module batch)
  crashed  died of a signal
  hung     took longer than the run without a server plus 8 s
  clean    failed (exit status != 0)
  ok       the output of a run without a server
  wrong    other output

Usage: slow_server.py BUILD_DIR [--count N] [--seed S]
"""

import random
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sweep import REPO, crashed, env_for, new_counts  # noqa: E402

LABEL = "slow shared-cache server (correct replies, random delays)"
PROFILES = ("all", "get", "set", "lock", "once")
# A run may cost the tier's 1 s allowance (plus what it earned) over a run
# without the server; the rest is slack for a loaded 2-core machine.
SLACK_SECONDS = 8


class SlowRedis:
    """Answers correctly after `delay(command)` seconds, a thread per
    connection."""

    def __init__(self, delay):
        self.delay = delay
        self.store = {}
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"redis://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.sock.close()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,),
                             daemon=True).start()

    @staticmethod
    def _read_command(f):
        line = f.readline()
        if not line.startswith(b"*"):
            return None
        args = []
        for _ in range(int(line[1:])):
            size = int(f.readline()[1:])
            args.append(f.read(size + 2)[:-2])
        return args

    def _answer(self, args):
        name = args[0].upper()
        with self.lock:
            if name == b"GET":
                value = self.store.get(args[1])
                return b"$-1\r\n" if value is None else \
                    b"$%d\r\n%s\r\n" % (len(value), value)
            if name == b"SET":
                if len(args) > 3 and args[3].upper() == b"NX" and \
                        args[1] in self.store:
                    return b"$-1\r\n"
                self.store[args[1]] = args[2]
                return b"+OK\r\n"
            if name == b"EXISTS":
                return b":1\r\n" if args[1] in self.store else b":0\r\n"
            if name == b"EVAL":
                if self.store.get(args[3]) == args[4]:
                    del self.store[args[3]]
                    return b":1\r\n"
                return b":0\r\n"
            return b"+OK\r\n"

    def _serve(self, conn):
        f = conn.makefile("rb")
        try:
            while True:
                args = self._read_command(f)
                if not args:
                    return
                time.sleep(self.delay(args))
                conn.sendall(self._answer(args))
        except (OSError, ValueError):
            pass
        finally:
            conn.close()


def make_delay(profile, top, rng):
    """Delays in seconds for `profile`, drawn from a generator of the case's
    own (servers answer from several threads)."""
    lock = threading.Lock()
    case_rng = random.Random(rng.random())
    once = [True]

    def delay(args):
        name = args[0].upper()
        is_lock = name in (b"EVAL", b"EXISTS") or (
            name == b"SET" and b":lock:" in args[1])
        with lock:
            if profile == "once":
                hit, once[0] = once[0], False
            else:
                hit = (profile == "all" or
                       (profile == "get" and name == b"GET") or
                       (profile == "set" and name == b"SET" and not is_lock) or
                       (profile == "lock" and is_lock))
            return case_rng.uniform(0, top) if hit else 0
    return delay


def run_pipeline(build, input, out, cache_dir, url, timeout):
    options = f"arch=pvc link=false cache-dir={cache_dir}"
    if url:
        options += f" cache-url={url}"
    start = time.time()
    proc = subprocess.run(
        [str(build / "bin" / "xpu-opt"), str(input),
         f"--xpu-codegen-pipeline={options}", "-o", str(out)],
        capture_output=True, text=True, timeout=timeout, env=env_for(build))
    return proc, time.time() - start


def sweep(build, count, rng, work):
    counts = new_counts()
    work.mkdir(parents=True, exist_ok=True)
    input = work / "slow-server.mlir"
    with open(input, "w") as f:
        subprocess.run([sys.executable, str(REPO / "bench" / "pipeline" /
                                            "gen_inputs.py"), "mix",
                        "--pointwise", "4", "--reductions", "1", "--heavy",
                        "1"], stdout=f, check=True)
    reference = work / "slow-reference.mlir"
    proc, cold = run_pipeline(build, input, reference, work / "slow-ref-cache",
                              None, 600)
    if proc.returncode != 0:
        raise RuntimeError("reference run failed: " + proc.stderr[-400:])
    bound = cold + SLACK_SECONDS
    for i in range(count):
        profile = PROFILES[i % len(PROFILES)]
        top = rng.uniform(0.5, 4.5)
        server = SlowRedis(make_delay(profile, top, rng))
        for phase in ("cold", "warm"):
            out = work / f"slow{i}-{phase}.mlir"
            counts["tried"] += 1
            try:
                proc, seconds = run_pipeline(
                    build, input, out, work / f"slow{i}-{phase}", server.url,
                    bound + 600)
            except subprocess.TimeoutExpired:
                counts["hung"] += 1
                continue
            label = f"{profile} up to {top:.1f} s, {phase}: {seconds:.1f} s"
            if crashed(proc):
                counts["crashed"] += 1
                print("CRASH", label, proc.stderr[-400:], file=sys.stderr)
            elif seconds > bound:
                counts["hung"] += 1
                print(f"HUNG {label} (bound {bound:.1f} s)", file=sys.stderr)
            elif proc.returncode != 0:
                counts["clean"] += 1
                print("FAILED", label, proc.stderr[-400:], file=sys.stderr)
            elif out.read_bytes() == reference.read_bytes():
                counts["ok"] += 1
            else:
                counts["wrong"] += 1
                print("WRONG", label, file=sys.stderr)
        server.close()
    return counts


if __name__ == "__main__":
    import sweep as driver
    driver.run_alone(sys.modules[__name__], 6)
