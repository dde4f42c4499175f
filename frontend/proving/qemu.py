# SPDX-License-Identifier: GPL-2.0-only
"""Boot a kernel and an initramfs under qemu with a serial console, and
return what the console printed. Every boot has a hard time limit, and
qemu never outlives the call: it runs in its own process group, which is
killed on the way out whatever happened (a timeout, an exception, a
signal turned into one)."""
import os
import selectors
import signal
import subprocess
import time

APPEND = ("console=ttyS0 panic=-1 quiet loglevel=4 "
          "hung_task_panic=0 nokaslr mitigations=off rdinit=/init")


def boot(qemu, vmlinuz, initrd, timeout, kvm=False, memory=512,
         log=None):
    """(console text, finished before the limit)."""
    args = [qemu, "-nodefaults", "-no-user-config", "-nographic",
            "-no-reboot", "-m", str(memory), "-smp", "1",
            "-accel", "kvm" if kvm else "tcg",
            "-serial", "stdio", "-monitor", "none", "-net", "none",
            "-kernel", vmlinuz, "-initrd", initrd, "-append", APPEND]
    if kvm:
        args += ["-cpu", "host"]
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            start_new_session=True)
    chunks = []
    finished = False
    try:
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if not sel.select(min(left, 1.0)):
                continue
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:
                finished = proc.wait() is not None
                break
            chunks.append(data)
            if log:
                log.write(data)
                log.flush()
    finally:
        _kill(proc)
    return b"".join(chunks).decode("utf-8", "replace"), finished


def _kill(proc):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    proc.stdout.close()
