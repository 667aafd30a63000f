"""One line per report module: file, compiler (version part), cache status,
mode, n_regs and the spill of every attempt."""
import json
import os
import sys

for path in sys.argv[1:]:
    with open(path) as f:
        report = json.load(f)
    for module in report["modules"]:
        compiler = " ".join(module["compiler"].split()[:2])
        attempts = " ".join(f"{a['grf_mode']}:{a['spill_size']}"
                            for a in module["attempts"])
        print(os.path.basename(path), compiler, module["cache"],
              module["grf_mode"], module["n_regs"], attempts)
