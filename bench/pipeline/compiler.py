"""The compiler both sides of the benchmark use: an ocloc installation, how
to start its ocloc, and its identity."""
import os
import re
import shutil
import subprocess
import tempfile

from common import BenchError, timed

LIB_DIR = os.path.join("usr", "lib", "x86_64-linux-gnu")
LOADER = "ld-linux-x86-64.so.2"


class Compiler:
    """An ocloc installation: the system's (`ocloc` on PATH) or a root
    directory (ROOT/usr/bin/ocloc*, its libraries in ROOT/usr/lib/
    x86_64-linux-gnu, started through that directory's loader when it has
    one, so nothing of the root's C/C++ runtime meets the system's)."""

    def __init__(self, root=None):
        self.root = root
        if root is None:
            exe = shutil.which("ocloc")
            if not exe:
                raise BenchError("ocloc not on PATH")
            self.ocloc = [exe]
            self.env = None
            return
        lib = os.path.join(root, LIB_DIR)
        bindir = os.path.join(root, "usr", "bin")
        names = sorted(n for n in (os.listdir(bindir)
                                   if os.path.isdir(bindir) else [])
                       if n == "ocloc" or n.startswith("ocloc-"))
        if not names:
            raise BenchError(f"--compiler-root {root}: no ocloc in {bindir}")
        exe = os.path.join(bindir, names[-1])
        if os.path.exists(os.path.join(lib, LOADER)):
            self.ocloc = [os.path.join(lib, LOADER), "--library-path", lib,
                          exe]
            self.env = None
        else:
            self.ocloc = [exe]
            self.env = dict(os.environ, LD_LIBRARY_PATH=lib)

    def run(self, args, cwd):
        return timed(self.ocloc + args, cwd=cwd, env=self.env)

    def driver_version(self, work):
        """`ocloc query OCL_DRIVER_VERSION` (the compute-runtime release;
        ocloc 22.43 has no --version)."""
        qdir = tempfile.mkdtemp(dir=work)
        try:
            r, _ = self.run(["query", "OCL_DRIVER_VERSION"], qdir)
            path = os.path.join(qdir, "OCL_DRIVER_VERSION")
            if r.returncode != 0 or not os.path.exists(path):
                return "unknown"
            with open(path, errors="replace") as f:
                return f.read().replace("\0", "").strip()
        finally:
            shutil.rmtree(qdir, ignore_errors=True)

    def igc_version(self):
        """IGC's version from its library's name (libigc.so.2.40.14+0) or,
        for the system's, from dpkg (libigc1 1.0.12504.6-1+deb12u1)."""
        if self.root:
            lib = os.path.join(self.root, LIB_DIR)
            for n in sorted(os.listdir(lib)):
                m = re.match(r"libigc\.so\.(\d+\.\d+\.\d+)", n)
                if m:
                    return m.group(1)
            return "unknown"
        r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}",
                            "libigc1"], capture_output=True, text=True)
        m = re.match(r"(\d+\.\d+\.\d+)", r.stdout)
        return m.group(1) if r.returncode == 0 and m else "unknown"

