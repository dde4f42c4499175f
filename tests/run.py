#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs every test (tests/test_*.py) and ends with 'N passed, N failed'."""
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))


class Result(unittest.TextTestResult):
    def startTest(self, test):
        self._t0 = time.time()
        super().startTest(test)

    def _line(self, word, test):
        self.stream.write("%-4s %s (%.1fs)\n" % (word, test.id(),
                                                 time.time() - self._t0))
        self.stream.flush()

    def addSuccess(self, test):
        unittest.TestResult.addSuccess(self, test)
        self._line("ok", test)

    def addFailure(self, test, err):
        unittest.TestResult.addFailure(self, test, err)
        self._line("FAIL", test)

    def addError(self, test, err):
        unittest.TestResult.addError(self, test, err)
        self._line("ERR", test)

    def addSkip(self, test, reason):
        unittest.TestResult.addSkip(self, test, reason)
        self._line("skip", test)


def main(argv):
    pattern = argv[1] if len(argv) > 1 else "test_*.py"
    suite = unittest.defaultTestLoader.discover(HERE, pattern=pattern,
                                                top_level_dir=HERE)
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=0,
                                     resultclass=Result)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors)
    passed = res.testsRun - failed - len(res.skipped)
    line = "%d passed, %d failed" % (passed, failed)
    if res.skipped:
        line += ", %d skipped" % len(res.skipped)
    print(line)
    return 1 if failed or res.testsRun == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
