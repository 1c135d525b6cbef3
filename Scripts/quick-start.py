#!/usr/bin/env python3
"""Follows the README's Quick start word for word, in a fresh folder beside this clone.

Each block the Quick start marks `<!-- quick start: run -->` is run line by line with bash in the
app's folder; a block marked `<!-- quick start: PATH -->` is written to PATH there. The app's
Package.swift names Strata as `../strata`, so the folder holds `strata` (a link to this clone) and
`App`. Checks what the steps say they print: `1 items` after step 3, `2 items` after step 6, and that the
app resolved no package of PostgreSQL's (Package.resolved pins only EXPECTED_PINS).
Exits non-zero at the first command that fails or warns.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The packages an app that uses Strata without the PostgreSQL trait resolves: the CLI's and the
# generator's (the build plugin's tool is built for the app) and swift-log.
EXPECTED_PINS = ["pathkit", "spectre", "stencil", "swift-argument-parser", "swift-log"]
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
section = readme[readme.index("## Quick start"):]
section = section[:section.index("\n## ", 1)]

steps = []
for match in re.finditer(r"<!-- quick start: (.+?) -->\n\s*```\w*\n(.*?)\n\s*```", section, re.S):
    target, body = match.group(1), match.group(2)
    indent = min(len(line) - len(line.lstrip()) for line in body.split("\n") if line.strip())
    steps.append((target, "\n".join(line[indent:] for line in body.split("\n")) + "\n"))
if not steps:
    sys.exit("the README's Quick start has no marked steps")

# STRATA_QUICK_START_FOLDER (CI's cache, see .ci/run) names a folder kept from run to run: all of
# it but the app's scratch folder is removed first, so the steps still start from nothing but the
# build reuses what the last run compiled (this clone's path must be the same each time too).
kept = os.environ.get("STRATA_QUICK_START_FOLDER")


def empty(path, keep):
    """Removes everything in path but the entry named keep."""
    for name in os.listdir(path):
        entry = os.path.join(path, name)
        if name == keep:
            continue
        if os.path.isdir(entry) and not os.path.islink(entry):
            shutil.rmtree(entry)
        else:
            os.unlink(entry)


if kept:
    folder = os.path.abspath(kept)
    os.makedirs(os.path.join(folder, "App"), exist_ok=True)
    empty(folder, keep="App")
    empty(os.path.join(folder, "App"), keep=".build")
else:
    folder = tempfile.mkdtemp(prefix="strata-quick-start-")
try:
    os.symlink(root, os.path.join(folder, "strata"))
    app = os.path.join(folder, "App")
    os.makedirs(app, exist_ok=True)
    # SwiftPM's lock files and anything else the tools leave in the temporary folder stay in ours.
    scratch = os.path.join(folder, "tmp")
    os.makedirs(scratch)
    environment = dict(os.environ, TMPDIR=scratch)
    outputs = []
    for target, body in steps:
        if target != "run":
            path = os.path.join(app, target)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as file:
                file.write(body)
            print(f"quick start: wrote {target}", flush=True)
            continue
        for command in body.strip().split("\n"):
            print(f"quick start: $ {command}", flush=True)
            result = subprocess.run(["bash", "-c", command], cwd=app, capture_output=True, text=True, env=environment)
            sys.stdout.write(result.stdout)
            if result.returncode != 0:
                sys.stdout.write(result.stderr)
                sys.exit(f"quick start: '{command}' failed (exit {result.returncode})")
            warnings = [line for line in (result.stdout + result.stderr).split("\n") if "warning:" in line]
            if warnings:
                sys.exit("quick start: '" + command + "' warned:\n" + "\n".join(warnings))
            if command == "swift run App":
                outputs.append(result.stdout.strip().split("\n")[-1])
    if outputs != ["1 items", "2 items"]:
        sys.exit(f"quick start: the app printed {outputs}, not ['1 items', '2 items']")
    # An app of Strata alone resolves only what it builds: none of PostgreSQL's packages, which
    # only the PostgreSQL trait brings in.
    import json
    with open(os.path.join(app, "Package.resolved"), encoding="utf-8") as file:
        resolved = sorted(pin["identity"] for pin in json.load(file)["pins"])
    print(f"quick start: Package.resolved pins {len(resolved)} packages: {', '.join(resolved)}")
    if resolved != EXPECTED_PINS:
        sys.exit(f"quick start: a SQLite-only app should resolve {EXPECTED_PINS}, not {resolved}")
    print("quick start: every step worked")
finally:
    if not kept:
        shutil.rmtree(folder, ignore_errors=True)
