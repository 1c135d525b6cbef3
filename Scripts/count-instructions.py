#!/usr/bin/env python3
"""Counts the instructions (callgrind's Ir) each contender of strata-bench executes for the
insert, fetch, import and query workloads: one round each, under valgrind, with the setup's own count
(a run with STRATA_BENCH_SETUP_ONLY=1) subtracted. Unlike timings, the figures barely move from
run to run, so a change that slows a hot path shows up in review: the results are written to
Benchmarks/instructions.txt, which is committed.

Usage: python3 Scripts/count-instructions.py [--output FILE] [workload ...]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = ["insert", "fetch", "import", "import-dict-150k", "small-queries", "aggregate"]
CONTENDERS = ["strata", "raw"]


def count(binary, workload, contender, setup_only):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        env = dict(os.environ, STRATA_BENCH_ROUNDS="1", STRATA_BENCH_CONTENDERS=contender,
                   SWIFT_DETERMINISTIC_HASHING="1", STRATA_BENCH_SETUP_ONLY="1" if setup_only else "0")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary, workload],
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as handle:
            for line in handle:
                match = re.match(r"(summary|totals): (\d+)", line)
                if match:
                    return int(match.group(2))
    raise RuntimeError(f"no instruction total for {workload} {contender}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--output", default=os.path.join(ROOT, "Benchmarks", "instructions.txt"))
    parser.add_argument("workloads", nargs="*", default=WORKLOADS)
    arguments = parser.parse_args()
    subprocess.run(["swift", "build", "-c", "release", "--package-path", os.path.join(ROOT, "Benchmarks")], check=True,
                   stdout=subprocess.DEVNULL)
    built = os.path.join(ROOT, "Benchmarks", ".build", "release", "strata-bench")
    # Valgrind gives up on the DWARF the toolchain writes ("Possibly corrupted debuginfo file"):
    # it counts a copy without debug information (the symbol table, all callgrind needs, stays).
    scratch = tempfile.mkdtemp()
    binary = os.path.join(scratch, "strata-bench")
    subprocess.run(["objcopy", "--strip-debug", built, binary], check=True)
    lines = ["# Instructions (callgrind Ir) of one round of each workload, setup subtracted.",
             "# Regenerate with: python3 Scripts/count-instructions.py",
             "workload contender instructions ratio_vs_raw"]
    for workload in arguments.workloads:
        counts = {}
        for contender in CONTENDERS:
            counts[contender] = count(binary, workload, contender, False) - count(binary, workload, contender, True)
        for contender in CONTENDERS:
            line = f"{workload} {contender} {counts[contender]} {counts[contender] / counts['raw']:.2f}"
            print(line, flush=True)
            lines.append(line)
    with open(arguments.output, "w") as handle:
        handle.write("\n".join(lines) + "\n")
    os.remove(binary)
    os.rmdir(scratch)


if __name__ == "__main__":
    sys.exit(main())
