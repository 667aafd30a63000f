# -*- Python -*-
# The GoogleTest executables of unittests/ (built into bin/), run as one lit
# test per GoogleTest test: a failure names its test and prints its output.
#
# test/Unit/lit.site.cfg.py.in has already loaded the main suite's
# configuration, so these tests get its environment (the cache disabled,
# $XPU_CODEGEN_WORKER and the sanitizer options passed through), its
# features and its XPU_REQUIRE_COMPILERS check. A GoogleTest test that
# calls GTEST_SKIP is reported as skipped, never as passed.

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from xpu_googletest import XPUGoogleTest

config.name = "XPUCodegen-Unit"
config.test_source_root = config.xpu_tools_dir
config.test_exec_root = config.xpu_tools_dir
config.test_format = XPUGoogleTest(
    requires={
        # Its builds run the real IGC.
        "XPULevelZeroTests": ["ocloc"],
    },
    environment={
        # The real loader loads the offline driver; it reads
        # ZE_ENABLE_ALT_DRIVERS once, at the first zeInit of the process.
        # Only this executable gets it: WorkerPoolTest checks what happens
        # without a Level Zero driver.
        "XPULevelZeroTests": {
            "ZE_ENABLE_ALT_DRIVERS": config.xpu_ze_offline_driver,
            "XPU_ZE_OFFLINE_DEVICES": "pvc,acm-g10",
        },
    })
