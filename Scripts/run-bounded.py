#!/usr/bin/env python3
"""Runs a test command with a time bound, for CI.

    Scripts/run-bounded.py SECONDS LOG -- COMMAND [ARGUMENT ...]

The command's output goes to standard output and to LOG as it comes. When it has not ended after
SECONDS, the script writes every thread's backtrace of the processes the command started to
LOG.backtraces (with gdb, when it is installed), stops the whole process group, and prints the
Swift Testing tests that started and never ended, so a hang costs one bounded step and says where
it is instead of using up the rest of CI's time. Its exit status is the command's, or 124 after a
stop.
"""

import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import threading

STARTED = re.compile(r"^◇ Test (\S+) started\.$")
ENDED = re.compile(r"^[✔✘] Test (\S+) (?:with \d+ test cases? )?(?:passed|failed)")


def unfinished_tests(lines):
    """The names of tests with more `started` lines than ended ones, in the order they started."""
    open_counts = collections.Counter()
    order = []
    for line in lines:
        started = STARTED.match(line)
        if started and line != "◇ Test run started.":
            name = started.group(1)
            open_counts[name] += 1
            if name not in order:
                order.append(name)
            continue
        ended = ENDED.match(line)
        if ended and open_counts[ended.group(1)] > 0:
            open_counts[ended.group(1)] -= 1
    return [name for name in order if open_counts[name] > 0]


def descendants(root):
    """`root` and the process ids below it, read from /proc."""
    children = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            children[int(fields[1])].append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found, pending = [root], [root]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def dump_backtraces(root, path):
    """Writes every thread's backtrace of each process under `root` to `path`."""
    debugger = shutil.which("gdb")
    with open(path, "w") as out:
        if debugger is None:
            out.write("gdb is not installed; no backtraces\n")
            return
        for pid in descendants(root):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            out.write(f"===== process {pid}: {command}\n")
            out.flush()
            subprocess.run(
                [debugger, "-batch", "-p", str(pid), "-ex", "thread apply all bt"],
                stdout=out, stderr=subprocess.STDOUT, timeout=120, check=False)


def strata_frames(path, limit=80):
    """The threads in the backtraces at `path` that are in Strata's code, a few frames each,
    demangled when the toolchain's demangler is found: a short view for a log's tail."""
    try:
        with open(path, errors="replace") as dump:
            text = dump.read()
    except OSError:
        return []
    shown = []
    for thread in re.split(r"\n(?=Thread \d+ )", text):
        frames = [line for line in thread.splitlines() if line.startswith("#") and "Strata" in line]
        if frames:
            shown.append(thread.splitlines()[0][:100])
            shown.extend("  " + re.sub(r"^#\d+\s+0x[0-9a-f]+ in ", "", frame)[:200] for frame in frames[:5])
    demangler = shutil.which("swift-demangle")
    if demangler and shown:
        result = subprocess.run([demangler, "--simplified"], input="\n".join(shown), capture_output=True,
                                text=True, check=False)
        if result.returncode == 0:
            shown = [line[:200] for line in result.stdout.splitlines()]
    return shown[:limit]


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        sys.exit("usage: run-bounded.py SECONDS LOG -- COMMAND [ARGUMENT ...]")
    limit, log_path, command = float(sys.argv[1]), sys.argv[2], sys.argv[4:]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    lines = []

    def copy_output():
        with open(log_path, "wb") as log:
            for raw in process.stdout:
                sys.stdout.buffer.write(raw)
                sys.stdout.flush()
                log.write(raw)
                log.flush()
                lines.append(raw.decode(errors="replace").rstrip("\n"))

    copier = threading.Thread(target=copy_output, daemon=True)
    copier.start()
    try:
        status = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        dump_backtraces(process.pid, log_path + ".backtraces")
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        copier.join(timeout=10)
        print(f"\n=== stopped after {limit:.0f} s: {' '.join(command)}")
        print(f"=== backtraces of its processes: {log_path}.backtraces; the threads in Strata's code:")
        for line in strata_frames(log_path + ".backtraces"):
            print(f"    {line}")
        print("=== tests that started and never ended:")
        for name in unfinished_tests(lines) or ["(none named in the output)"]:
            print(f"    {name}")
        sys.exit(124)
    copier.join(timeout=10)
    sys.exit(status)


if __name__ == "__main__":
    main()
