#!/bin/sh
# A worker wrapper for tests of start faults (XPUWorkerTests, lit). Each start
# takes the next number in $XPU_START_COUNT_DIR (atomically, with mkdir) and
# writes its pid there; then, by $XPU_START_FAULT:
#   die         start number $XPU_START_FAULT_AT is SIGKILLed before hello
#   stop        start number $XPU_START_FAULT_AT stops itself (SIGSTOP)
#   always-die  every start is SIGKILLed
# Every other start runs $XPU_START_WORKER. With $XPU_START_CHILD_PIDS set,
# each start first forks a sleeping child (as a compiler library that forks
# would) and appends its pid and start time (/proc/PID/stat field 22) to that
# file: a checker that finds the pid with another start time sees another
# process (the pid was reused) and must leave it alone.
i=1
while ! mkdir "$XPU_START_COUNT_DIR/$i" 2>/dev/null; do i=$((i + 1)); done
echo $$ > "$XPU_START_COUNT_DIR/$i/pid"
if [ -n "$XPU_START_CHILD_PIDS" ]; then
  sleep 600 < /dev/null > /dev/null 2>&1 &
  echo "$! $(awk '{ sub(/.*\) /, ""); print $20 }' /proc/$!/stat)" >> "$XPU_START_CHILD_PIDS"
fi
case "$XPU_START_FAULT" in
  always-die) kill -9 $$ ;;
  die) [ "$i" = "$XPU_START_FAULT_AT" ] && kill -9 $$ ;;
  stop) [ "$i" = "$XPU_START_FAULT_AT" ] && kill -STOP $$ ;;
esac
exec "$XPU_START_WORKER" "$@"
