#!/usr/bin/env python3
"""Finds single-byte corruptions of a valid SPIR-V module that make IGC kill
its caller, for the worker pool's crash tests.

Each candidate (byte at offset i XOR 0xFF, in offset order) is compiled
in-process through libocloc's oclocInvoke (ctypes) in a fresh child
process, from a private empty directory, with a time limit. The first
candidate whose child ends with exit status 1 is written to
<out>-exit.spv, the first killed by SIGABRT to <out>-abort.spv. The search
is deterministic for a given input and IGC.

usage: find_fatal_corruptions.py add.spv corrupt [--device pvc]
"""
import argparse
import os
import signal
import subprocess
import sys
import tempfile

CHILD = r"""
import ctypes, sys
data = open(sys.argv[1], 'rb').read()
lib = ctypes.CDLL(sys.argv[3])
argv = [b'ocloc', b'compile', b'-file', b'k.spv', b'-spirv_input', b'-device',
        sys.argv[2].encode(), b'-internal_options', b'-ze-allow-zebin',
        b'-options', b' ', b'-output_no_suffix', b'-exclude_ir']
cargv = (ctypes.c_char_p * len(argv))(*argv)
src = (ctypes.POINTER(ctypes.c_uint8) * 1)(
    ctypes.cast(ctypes.create_string_buffer(data, len(data)),
                ctypes.POINTER(ctypes.c_uint8)))
lens = (ctypes.c_uint64 * 1)(len(data))
names = (ctypes.c_char_p * 1)(b'k.spv')
n = ctypes.c_uint32()
d = ctypes.POINTER(ctypes.POINTER(ctypes.c_uint8))()
l = ctypes.POINTER(ctypes.c_uint64)()
nm = ctypes.POINTER(ctypes.c_char_p)()
rc = lib.oclocInvoke(len(argv), cargv, 1, src, lens, names, 0, None, None,
                     None, ctypes.byref(n), ctypes.byref(d), ctypes.byref(l),
                     ctypes.byref(nm))
sys.stdout.flush()
sys.stderr.write('RC %d\n' % rc)
"""


def run(data, device, lib, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'in.spv')
        with open(path, 'wb') as f:
            f.write(data)
        try:
            p = subprocess.run([sys.executable, '-c', CHILD, path, device, lib],
                               cwd=tmp, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return 'timeout'
        if p.returncode < 0:
            return 'signal %d' % -p.returncode
        if b'RC ' in p.stderr:
            return 'rc ' + p.stderr.split(b'RC ')[-1].split()[0].decode()
        return 'exit %d' % p.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('input')
    ap.add_argument('out')
    ap.add_argument('--device', default='pvc')
    ap.add_argument('--lib', default='libocloc.so')
    ap.add_argument('--timeout', type=float, default=10)
    args = ap.parse_args()
    base = open(args.input, 'rb').read()
    wanted = {'exit 1': args.out + '-exit.spv',
              'signal %d' % signal.SIGABRT: args.out + '-abort.spv'}
    for i in range(len(base)):
        data = bytearray(base)
        data[i] ^= 0xFF
        outcome = run(bytes(data), args.device, args.lib, args.timeout)
        print('offset %d: %s' % (i, outcome), flush=True)
        if outcome in wanted:
            with open(wanted.pop(outcome), 'wb') as f:
                f.write(data)
        if not wanted:
            return 0
    print('not found: ' + ', '.join(wanted.values()), file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(main())
