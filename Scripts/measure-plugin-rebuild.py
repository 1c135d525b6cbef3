#!/usr/bin/env python3
"""Measures what an app with a large model pays through the build plugin: a clean debug build, a
rebuild with nothing changed, and the rebuild after one attribute of the newest version changes.

It writes an app beside a link to this clone (as the Quick start's app depends on Strata), with a
synthetic model from Scripts/make-large-model.py under Sources/App/Models/Large and the app's
implementation of its custom migration steps, then runs `swift build` three times and reports each
time and which generated files the change rewrote (the plugin's tool rewrites only the files whose
text changed, and SwiftPM recompiles what depends on those).

With --rebuilds N, the attribute is toggled N times (optional, required, optional, ...), each
rebuild timed, and the table gives the median and the range: one rebuild moves by a second with
the machine's load.

usage: measure-plugin-rebuild.py [--size 200x10] [--keep DIR] [--rebuilds N]
"""
import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MANIFEST = """// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(name: "strata", path: "../strata")],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [.product(name: "Strata", package: "strata")],
            exclude: ["Models"],
            plugins: [.plugin(name: "StrataPlugin", package: "strata")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
"""


def large_models_script():
    """Scripts/measure-large-models.py as a module, for the migrator it writes."""
    spec = importlib.util.spec_from_file_location("measure_large_models", os.path.join(ROOT, "Scripts", "measure-large-models.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(app):
    """`swift build` of the app; its seconds. Exits with the output when the build fails."""
    start = time.monotonic()
    result = subprocess.run(["swift", "build", "--package-path", app], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(result.stdout[-6000:] + result.stderr[-3000:] + "\nthe app's build failed")
    return seconds


def generated_files(app):
    """Every file the plugin wrote for the app, with its modification time."""
    files = {}
    for folder, _, names in os.walk(os.path.join(app, ".build")):
        if os.sep + "StrataPlugin" + os.sep not in folder + os.sep or "outputs" not in folder:
            continue
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                files[name] = os.path.getmtime(path)
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="200x10")
    parser.add_argument("--keep", help="build the app here instead of in a temporary folder")
    parser.add_argument("--rebuilds", type=int, default=1, help="how many one-attribute rebuilds to time")
    arguments = parser.parse_args()
    entities, versions = (int(part) for part in arguments.size.lower().split("x"))
    folder = arguments.keep or tempfile.mkdtemp(prefix="plugin-rebuild-")
    os.makedirs(folder, exist_ok=True)
    try:
        link = os.path.join(folder, "strata")
        if not os.path.exists(link):
            os.symlink(ROOT, link)
        app = os.path.join(folder, "App")
        shutil.rmtree(app, ignore_errors=True)
        models = os.path.join(app, "Sources", "App", "Models")
        os.makedirs(models)
        with open(os.path.join(app, "Package.swift"), "w") as handle:
            handle.write(MANIFEST)
        subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", "make-large-model.py"), os.path.join(models, "Large"),
                        str(entities), str(versions)], check=True)
        with open(os.path.join(app, "Sources", "App", "LargeMigrator.swift"), "w") as handle:
            handle.write(large_models_script().migrator(entities, versions))
        with open(os.path.join(app, "Sources", "App", "main.swift"), "w") as handle:
            handle.write("import Strata\n\nprint(Large.schemaHistory.currentVersion.name)\n")

        clean = build(app)
        unchanged = build(app)
        before = generated_files(app)
        # One attribute of one entity of the newest version changes: it becomes optional.
        newest = os.path.join(models, "Large", f"V{versions}.yml")
        text = open(newest).read()
        target = "  Entity7:\n    attributes:\n      field0: {type: String, indexed: true}\n      field1: {type: Int64, optional: true}\n      field2: {type: Double}\n"
        if target not in text:
            sys.exit("the model does not have the expected Entity7")
        optional = target.replace("field2: {type: Double}", "field2: {type: Double, optional: true}")
        times = []
        for rebuild in range(max(1, arguments.rebuilds)):
            with open(newest, "w") as handle:
                handle.write(text.replace(target, optional) if rebuild % 2 == 0 else text)
            times.append(build(app))
            if rebuild == 0:
                after = generated_files(app)
        rewritten = sorted(name for name, stamp in after.items() if before.get(name) != stamp)
        changed = f"{times[0]:.1f} s" if len(times) == 1 else \
            f"median {statistics.median(times):.2f} s ({min(times):.2f} to {max(times):.2f} s, {len(times)} rebuilds)"
        print(f"| model | clean build | nothing changed | one attribute changed | files rewritten |")
        print(f"|---|---|---|---|---|")
        print(f"| {entities} entities × {versions} versions | {clean:.1f} s | {unchanged:.1f} s | {changed} "
              f"| {len(rewritten)} of {len(after)}: {', '.join(rewritten)} |")
    finally:
        if not arguments.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
