# SPDX-License-Identifier: GPL-2.0-only
"""A one-line progress display on a terminal: files done / total,
findings so far, rate and time left. Silent elsewhere."""
import sys
import time


class Progress:
    def __init__(self, total, enabled=None, stream=None):
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = self.stream.isatty()
        self.enabled = enabled
        self.total = total
        self.done = 0
        self.findings = 0
        self.t0 = time.time()
        self.last = 0.0

    def step(self, files=1, findings=0):
        self.done += files
        self.findings += findings
        now = time.time()
        if self.enabled and (now - self.last > 0.2 or
                             self.done == self.total):
            self.last = now
            rate = self.done / max(now - self.t0, 1e-6)
            left = (self.total - self.done) / rate if rate else 0
            self.stream.write("\r\033[K[%d/%d] %d findings, %.1f files/s, "
                              "%s left" % (self.done, self.total,
                                           self.findings, rate,
                                           _clock(left)))
            self.stream.flush()

    def close(self):
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _clock(seconds):
    seconds = int(seconds)
    if seconds >= 3600:
        return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)
    return "%dm%02ds" % (seconds // 60, seconds % 60)
