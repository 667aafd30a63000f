"""Waits (up to 20 s) until every pid in argv[1] (one a line) is gone or a
zombie; prints how many were, and kills any still running."""

import os
import signal
import sys
import time


def running(pid):
    try:
        with open("/proc/%d/stat" % pid) as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


pids = [int(line) for line in open(sys.argv[1]).read().split()]
give_up = time.monotonic() + 20
while any(map(running, pids)) and time.monotonic() < give_up:
    time.sleep(0.05)
left = [pid for pid in pids if running(pid)]
for pid in left:
    os.kill(pid, signal.SIGKILL)
print("%d children, %d gone" % (len(pids), len(pids) - len(left)))
