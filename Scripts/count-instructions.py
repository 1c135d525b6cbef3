#!/usr/bin/env python3
"""Counts the instructions (callgrind's Ir) each contender of strata-bench executes for the
insert, fetch, import and query workloads: one round each, under valgrind. For the writes the
setup's own count (a run with STRATA_BENCH_SETUP_ONLY=1) is subtracted from a one-round run; for
the reads (fetch, small-queries, aggregate), whose setup is done once, a one-round run is
subtracted from a four-round run and the difference divided by three, so the figure is the mean of
rounds two to four: a first round's allocations land in a heap the setup's inserts left behind,
and what they cost there moved the fetch's figure by 8% between runs of the same fetch code (the
second round alone still costs Strata 5% more than the third and fourth). Unlike timings, the
figures barely move from run to run, so a change that slows a hot path shows up in review: the
results are written to Benchmarks/instructions.txt, which is committed.

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
# Workloads with no setup inside their rounds: measured as the mean of rounds two to four.
READS = {"fetch", "small-queries", "aggregate"}
READ_ROUNDS = 4


def count(binary, workload, contender, setup_only, rounds=1):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        env = dict(os.environ, STRATA_BENCH_ROUNDS=str(rounds), STRATA_BENCH_CONTENDERS=contender,
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
    lines = ["# Instructions (callgrind Ir) of one round of each workload: setup subtracted (writes), mean of rounds 2 to 4 (reads).",
             "# Regenerate with: python3 Scripts/count-instructions.py",
             "workload contender instructions ratio_vs_raw"]
    for workload in arguments.workloads:
        counts = {}
        for contender in CONTENDERS:
            if workload in READS:
                later = count(binary, workload, contender, False, rounds=READ_ROUNDS) - count(binary, workload, contender, False)
                counts[contender] = later // (READ_ROUNDS - 1)
            else:
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
