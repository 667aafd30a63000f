"""Waits (up to 20 s) until every process in argv[1] (a line each: pid and
start time, /proc/PID/stat field 22) is gone or a zombie; prints how many
were, and kills any still running. A pid whose start time differs is another
process (the pid was reused): gone, and never signalled."""

import os
import signal
import sys
import time


def running(child):
    pid, start = child
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and fields[19] == start


pids = [(int(line.split()[0]), line.split()[1])
        for line in open(sys.argv[1]).read().splitlines() if line.strip()]
give_up = time.monotonic() + 20
while any(map(running, pids)) and time.monotonic() < give_up:
    time.sleep(0.05)
left = [pid for pid in pids if running(pid)]
for pid, _ in left:
    os.kill(pid, signal.SIGKILL)
print("%d children, %d gone" % (len(pids), len(pids) - len(left)))
