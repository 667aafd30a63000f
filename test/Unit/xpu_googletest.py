# The GoogleTest format of the unit suite (test/Unit/lit.cfg.py). A module of
# its own, not part of lit.cfg.py: lit sends each test, format included, to
# its worker processes by pickling, which needs an importable class.

import copy
import os

import lit.formats
import lit.Test


class XPUGoogleTest(lit.formats.GoogleTest):
    """GoogleTest with, per executable, the lit features it requires (it is
    reported unsupported without them) and the environment it runs in."""

    def __init__(self, requires, environment):
        super().__init__(".", "Tests")
        self.requires = requires
        self.environment = environment

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig,
                            localConfig):
        for test in super().getTestsInDirectory(testSuite, path_in_suite,
                                                litConfig, localConfig):
            executable = os.path.basename(test.file_path)
            test.requires += self.requires.get(executable, [])
            if executable in self.environment:
                test.config = copy.copy(test.config)
                test.config.environment = dict(
                    test.config.environment, **self.environment[executable])
            yield test

    def execute(self, test, litConfig):
        missing = test.getMissingRequiredFeatures()
        if missing:
            return lit.Test.UNSUPPORTED, ("Test requires: " +
                                          ", ".join(missing))
        return super().execute(test, litConfig)
