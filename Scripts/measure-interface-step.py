#!/usr/bin/env python3
"""Times the step that writes a module's interface (`swift-frontend -emit-module`, which SwiftPM's
debug builds run again after any change to any file of the module) over the Swift files the build
plugin generated for an app, with the compiler's own phase timings.

It reads an app built by Scripts/measure-plugin-rebuild.py (`--keep DIR`): the generated files of
its `.build`, the app's own sources, and the `Strata` module it built. `--without GLOB` leaves out
generated files (`--without '*SchemaVersions*'` measures what the older versions cost), and `--extra FILE`
adds a hand-written file, to time a change to the generated code's shape before making it.

usage: measure-interface-step.py APP [--without GLOB ...] [--extra FILE ...] [--runs 3]
"""
import argparse
import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = ["perform-sema", "SILGen", "SIL optimization", "Serialization, swiftmodule"]


def inputs(app, without, extra):
    """The generated files (less those `without` matches), the app's sources and the extra files."""
    generated = [path for path in glob.glob(os.path.join(app, ".build", "plugins", "outputs", "**", "*.swift"), recursive=True)
                 if os.sep + "StrataPlugin" + os.sep in path]
    if not generated:
        sys.exit(f"no generated files under {app}/.build: build the app first")
    kept = [path for path in generated if not any(fnmatch.fnmatch(os.path.basename(path), pattern) for pattern in without)]
    own = [path for path in glob.glob(os.path.join(app, "Sources", "App", "*.swift")) if os.path.basename(path) != "main.swift"]
    return sorted(kept) + sorted(own) + extra


def frontend():
    """The swift-frontend beside the swift on the path."""
    swift = shutil.which("swift") or sys.exit("swift is not on the path")
    return os.path.join(os.path.dirname(os.path.realpath(swift)), "swift-frontend")


def measure(app, files):
    """One run of the interface step: its seconds and the compiler's phase timings."""
    modules = os.path.join(app, ".build", "debug", "Modules")
    with tempfile.TemporaryDirectory(prefix="interface-step-") as scratch:
        command = [frontend(), "-frontend", "-emit-module", "-experimental-skip-non-inlinable-function-bodies-without-types",
                   *files, "-module-name", "App", "-I", modules, "-I", os.path.join(ROOT, "Sources", "CSQLite"),
                   "-I", os.path.join(ROOT, "Sources", "CMallocInfo"), "-swift-version", "6", "-Onone", "-enable-testing", "-g",
                   "-parse-as-library", "-emit-module-path", os.path.join(scratch, "App.swiftmodule"),
                   "-stats-output-dir", scratch]
        start = time.monotonic()
        result = subprocess.run(command, capture_output=True, text=True)
        seconds = time.monotonic() - start
        if result.returncode != 0:
            sys.exit(result.stderr[-4000:] + "\nthe interface step failed")
        stats = json.load(open(glob.glob(os.path.join(scratch, "*.json"))[0]))
    return seconds, stats


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app")
    parser.add_argument("--without", action="append", default=[])
    parser.add_argument("--extra", action="append", default=[])
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    files = inputs(os.path.abspath(arguments.app), arguments.without, [os.path.abspath(path) for path in arguments.extra])
    for run in range(arguments.runs):
        seconds, stats = measure(os.path.abspath(arguments.app), files)
        phases = ", ".join(f"{phase} {stats.get(f'time.swift.{phase}.wall', 0):.2f} s" for phase in PHASES)
        print(f"run {run + 1}: {seconds:.2f} s ({phases}); {len(files)} files, "
              f"{stats.get('Sema.NumAccessorsSynthesized', 0)} accessors synthesized, "
              f"{stats.get('SILModule.NumSILGenFunctions', 0)} SIL functions")


if __name__ == "__main__":
    main()
