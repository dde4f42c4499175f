#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Runs every test (tests/test_*.py) and ends with 'N passed, N failed'.

run.py [-j N] [PATTERN]: with -j, N processes each run whole test classes,
the longest first (as long as they took in the last run here, recorded in
build/test-times.json; a class not timed yet goes first). MODLIFE_TESTS=check
(make check) skips the tests that need the network, an install or the
emulator; each says so.
"""
import io
import json
import multiprocessing
import os
import re
import signal
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TIMES = os.path.join(ROOT, "build", "test-times.json")
RESULT_LINE = re.compile(r"(ok|FAIL|ERR|skip) +\S+ \([0-9.]+s\)$")
sys.path.insert(0, HERE)
sys.path.insert(0, ROOT)


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


def _classes(suite):
    """The test classes of a suite, as 'module.Class' names, in order;
    a module that does not import is its own unit (its error shows)."""
    out = []
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            for n in _classes(t):
                if n not in out:
                    out.append(n)
        else:
            cls = type(t)
            name = (t._testMethodName
                    if cls.__module__ == "unittest.loader"
                    else "%s.%s" % (cls.__module__, cls.__name__))
            if name not in out:
                out.append(name)
    return out


def _run_class(name):
    """Runs one class in this worker: (name, its output, counts, seconds)."""
    t0 = time.time()
    stream = io.StringIO()
    suite = unittest.defaultTestLoader.loadTestsFromName(name)
    runner = unittest.TextTestRunner(stream=stream, verbosity=0,
                                     resultclass=Result)
    res = runner.run(suite)
    # a test may have run the CLI in this process, which turns SIGTERM
    # into an exception: the pool's end must stay quiet
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    failed = len(res.failures) + len(res.errors)
    lines = [ln for ln in stream.getvalue().splitlines(True)
             if RESULT_LINE.match(ln)]
    details = "".join("%s\n%s: %s\n%s" % ("=" * 70, kind, t.id(), tb)
                      for kind, errs in (("FAIL", res.failures),
                                         ("ERROR", res.errors))
                      for t, tb in errs)
    return (name, "".join(lines), details, res.testsRun, failed,
            len(res.skipped), time.time() - t0)


def _load_times():
    try:
        with open(TIMES) as f:
            data = json.load(f)
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_times(times):
    try:
        os.makedirs(os.path.dirname(TIMES), exist_ok=True)
        tmp = TIMES + ".%d" % os.getpid()
        with open(tmp, "w") as f:
            json.dump(times, f, indent=0, sort_keys=True)
        os.replace(tmp, TIMES)
    except OSError:
        pass    # the order only costs time


def parallel(pattern, jobs):
    suite = unittest.defaultTestLoader.discover(HERE, pattern=pattern,
                                                top_level_dir=HERE)
    names = _classes(suite)
    times = _load_times()
    names.sort(key=lambda n: -times.get(n, 1e9))
    run = passed = failed = skipped = 0
    details = []
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        for (name, out, det, n, f, s, secs) in pool.imap_unordered(
                _run_class, names):
            sys.stdout.write(out)
            sys.stdout.flush()
            details.append(det)
            run += n
            failed += f
            skipped += s
            times[name] = round(secs, 1)
        # workers that end on their own run multiprocessing's
        # finalizers (the tests' temporary caches); terminate() would not
        pool.close()
        pool.join()
    passed = run - failed - skipped
    _save_times(times)
    sys.stdout.write("".join(details))
    return run, passed, failed, skipped


def serial(pattern):
    suite = unittest.defaultTestLoader.discover(HERE, pattern=pattern,
                                                top_level_dir=HERE)
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=0,
                                     resultclass=Result)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors)
    skipped = len(res.skipped)
    return res.testsRun, res.testsRun - failed - skipped, failed, skipped


def same_python():
    """A directory whose python3 is the interpreter running the tests, put
    first on PATH: the modlife commands the tests start, and spatch's
    embedded Python, then run on it (not on whatever python3 comes first
    on PATH, which may be another version, or a slow shim)."""
    import atexit
    import shutil
    import tempfile
    d = tempfile.mkdtemp(prefix="modlife-python-")
    atexit.register(shutil.rmtree, d, True)
    os.symlink(sys.executable, os.path.join(d, "python3"))
    os.environ["PATH"] = d + os.pathsep + os.environ.get("PATH", "")


def main(argv):
    same_python()
    # the tests start the front end hundreds of times: compiling its
    # modules anew each time (PYTHONDONTWRITEBYTECODE) costs a tenth of
    # a second a run; the bytecode goes to __pycache__ beside them
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False
    args = argv[1:]
    jobs = 1
    if args[:1] == ["-j"] and len(args) > 1 and args[1].isdigit():
        jobs = max(1, int(args[1]))
        args = args[2:]
    pattern = args[0] if args else "test_*.py"
    t0 = time.time()
    if jobs > 1:
        run, passed, failed, skipped = parallel(pattern, jobs)
    else:
        run, passed, failed, skipped = serial(pattern)
    line = "%d passed, %d failed" % (passed, failed)
    if skipped:
        line += ", %d skipped" % skipped
    print("(%d tests in %.0f s, %d processes)" % (run, time.time() - t0,
                                                  jobs))
    print(line)
    return 1 if failed or run == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
