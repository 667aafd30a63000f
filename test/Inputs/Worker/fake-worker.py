#!/usr/bin/env python3
"""A stand-in for xpu-compile-worker that misbehaves on purpose (tests).

It speaks the worker protocol (include/XPUCodegen/Compiler/Worker/
WorkerProtocol.h, version 2) and answers compile requests with real zebins
from test/Inputs/Native (small or large by the GRF flag), altered as
$XPU_FAKE_WORKER says:

  silent       never says hello
  die-early    exits before saying hello
  extra-reply  answers every compile twice
  wrong-id     answers with another request's id
  nan          reports a NaN compile time
  grf999       the zebin's grf_count becomes 999
  simd3        the zebin's simd_size becomes 3
  hang         never answers a compile request
  huge-log     fails every build with a log of $XPU_FAKE_WORKER_LOG_MB MiB
               (default 200) of spill warnings between a first and a last line
  root         a fake compiler: the compiler root the host gives it
               ($XPU_CODEGEN_COMPILER_ROOT) holds fake-compiler.json,
               {"identity": ..., "small": zebin, "large": zebin}, naming its
               identity and the zebins (of test/Inputs/Native) it answers
               small and large builds with (the diff tests)

$XPU_FAKE_WORKER_LOG, if set, gets one line per start: the --work-dir.
"""

import json
import os
import struct
import sys
import time

MAGIC, VERSION = 0x57555058, 2
HELLO, COMPILE, RESPONSE, IDENTITY, IDENTITY_RESPONSE = 1, 2, 3, 4, 5
INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "Native")


def send(kind, payload, request_id=0):
    header = struct.pack("<IHHQQ", MAGIC, VERSION, kind, request_id,
                         len(payload))
    os.write(1, header + payload)


def read_exact(size):
    data = b""
    while len(data) < size:
        chunk = os.read(0, size - len(data))
        if not chunk:
            sys.exit(0)
        data += chunk
    return data


def blob(data):
    return struct.pack("<Q", len(data)) + data


def take_blob(payload, offset):
    size, = struct.unpack_from("<Q", payload, offset)
    offset += 8
    return payload[offset:offset + size], offset + size


def huge_log():
    line = (b"warning: kernel k  compiled SIMD32 allocated 128 regs and "
            b"spilled around 580\n")
    size = int(os.environ.get("XPU_FAKE_WORKER_LOG_MB", "200")) << 20
    return (b"first line of the log\n" + line * (size // len(line))
            + b"last line of the log\n")


def fake_compiler():
    """The fake compiler's description in its root (mode "root")."""
    root = os.environ.get("XPU_CODEGEN_COMPILER_ROOT", "")
    with open(os.path.join(root, "fake-compiler.json")) as f:
        return json.load(f)


def main():
    mode = os.environ.get("XPU_FAKE_WORKER", "")
    work_dir = ""
    for arg in sys.argv[1:]:
        if arg.startswith("--work-dir="):
            work_dir = arg[len("--work-dir="):]
    if os.environ.get("XPU_FAKE_WORKER_LOG"):
        with open(os.environ["XPU_FAKE_WORKER_LOG"], "a") as log:
            log.write(work_dir + "\n")
    if mode == "silent":
        time.sleep(3600)
    if mode == "die-early":
        sys.exit(3)
    send(HELLO, struct.pack("<I", os.getpid()) + blob(work_dir.encode()))
    while True:
        magic, version, kind, request_id, size = struct.unpack(
            "<IHHQQ", read_exact(24))
        payload = read_exact(size)
        fake = fake_compiler() if mode == "root" else {}
        if kind == IDENTITY:
            identity = fake.get("identity", "fake-worker 1").encode()
            send(IDENTITY_RESPONSE, blob(identity), request_id)
            continue
        if mode == "hang":
            time.sleep(3600)
        _, offset = 1, 1  # backend
        _, offset = take_blob(payload, offset)  # device
        options, offset = take_blob(payload, offset)
        large = b"256-GRF" in options or b"large-register-file" in options
        name = "spill_small_only.pvc.%s.zebin" % ("large" if large else "small")
        name = fake.get("large" if large else "small", name)
        with open(os.path.join(INPUTS, name), "rb") as f:
            zebin = f.read()
        if mode == "grf999":
            zebin = zebin.replace(b"grf_count:       128",
                                  b"grf_count:       999")
            zebin = zebin.replace(b"grf_count:       256",
                                  b"grf_count:       999")
        if mode == "simd3":
            zebin = zebin.replace(b"simd_size:       32",
                                  b"simd_size:       3 ")
        ms = float("nan") if mode == "nan" else 12.5
        if mode == "huge-log":
            send(RESPONSE, struct.pack("<Bi", 0, 1) + blob(huge_log())
                 + blob(b"") + struct.pack("<Q", 0) + struct.pack("<d", ms),
                 request_id)
            continue
        response = (struct.pack("<Bi", 1, 0) + blob(b"") + blob(zebin)
                    + struct.pack("<Q", 0) + struct.pack("<d", ms))
        send(RESPONSE, response,
             request_id - 1 if mode == "wrong-id" else request_id)
        if mode == "extra-reply":
            send(RESPONSE, response[:-8] + struct.pack("<d", 999.0),
                 request_id)


if __name__ == "__main__":
    main()
