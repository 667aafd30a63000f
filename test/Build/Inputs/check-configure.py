"""Reports what a configured build directory will build and test with."""

import os
import re
import subprocess
import sys

build = sys.argv[1]
with open(os.path.join(build, "CMakeCache.txt")) as f:
    cache = dict(re.findall(r"^([A-Za-z0-9_]+):[A-Z]+=(.*)$", f.read(), re.M))
with open(os.path.join(build, "test", "lit.site.cfg.py")) as f:
    lit_python = re.search(r'config.python_executable = "(.*)"',
                           f.read()).group(1)

print("CMAKE_BUILD_TYPE:", cache.get("CMAKE_BUILD_TYPE"))
lit = cache.get("LLVM_EXTERNAL_LIT", "")
print("lit:", "executable" if os.access(lit, os.X_OK) else "missing " + lit)
python = cache.get("Python3_EXECUTABLE", "")
same = "the same" if python and python == lit_python else "different"
pytest = subprocess.run([python, "-c", "import pytest"],
                        capture_output=True).returncode == 0
print(f"python: {same} in lit and in the package, "
      f"{'has' if pytest else 'lacks'} pytest")
