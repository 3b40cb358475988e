#!/usr/bin/env python3
"""Where a JVM's CPU time went so far, by thread: load/lib/thread-cpu.py PID prints one JSON object of CPU seconds
(user + system) per group of threads, read from /proc/PID/task/*/stat, plus "exited" (the process's total less its
live threads': threads that ended, such as the JVM's short-lived start-up ones) and "total"."""
import json
import os
import re
import sys

GROUPS = [  # (group, pattern on the thread's name as /proc shows it: at most 15 characters)
    ("C2 compiler", r"^C2 CompilerThre"),
    ("C1 compiler", r"^C1 CompilerThre"),
    ("GC", r"^(GC Thread|G1 |VM Periodic|Serial|ParGC)"),
    ("VM", r"^(VM Thread|Common-Cleaner|Finalizer|Reference Handl|Signal Dispatch|Service Thread|Monitor Deflati|Notification Th|Attach Listener|Training replay)"),
    # the JVM does not rename the launcher's main thread: it keeps the process's name
    ("main: start-up and warm-up", r"^(main|java)$"),
    ("event loops", r"(http-ep|http-nio|epoll)"),
    ("API workers", r"^api-worker"),
    ("parse, render, upload handlers", r"^(posekit-parse|posekit-render|ForkJoinPool)"),
    ("other", r""),
]


def ticks(stat):
    # the name may hold spaces and parentheses: the fields after its last ')' are fixed
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of the line)


def main(pid):
    hz = os.sysconf("SC_CLK_TCK")
    out = {name: 0.0 for name, _ in GROUPS}
    live = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            t = ticks(open(f"/proc/{pid}/task/{tid}/stat").read())
        except OSError:
            continue  # ended meanwhile
        live += t
        group = next(g for g, p in GROUPS if re.search(p, name))
        out[group] += t / hz
    total = ticks(open(f"/proc/{pid}/stat").read()) / hz
    out["exited"] = max(0.0, total - live / hz)
    out["total"] = total
    print(json.dumps({k: round(v, 2) for k, v in out.items()}))


if __name__ == "__main__":
    main(sys.argv[1])
