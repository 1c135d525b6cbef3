#!/usr/bin/env python3
"""Runs schemathesis against the PetServer sample on a fresh SQLite store, as CI does.

usage: fuzz-petserver.py PETSERVER_BINARY [--examples N] [--seed S] [--time-limit SECONDS]

Starts the built server in a temporary folder (port 0, so it picks a free one, read from the line
it prints), loads its /openapi.json, and runs every phase of `st run` with these checks: no 5xx,
status codes, content types and response bodies as the document says, schema-violating requests
refused with a 4xx, and (a check of Scripts/schemathesis/petserver_hooks.py) the store unchanged by
a refused request. /dogs/live is left out: it is an endless event stream. Exits with
schemathesis's status (0 when every check held); past --time-limit the run is stopped and fails.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection"


def start_server(binary, folder):
    """The server process and its base URL."""
    log = open(os.path.join(folder, "server.log"), "w+")
    process = subprocess.Popen([binary, "--hostname", "127.0.0.1", "--port", "0"], cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        log.seek(0)
        for line in log.read().splitlines():
            if line.startswith("PetServer listening on "):
                address = line.split()[3]
                return process, f"http://{address}"
        if process.poll() is not None:
            break
        time.sleep(0.1)
    process.kill()
    log.seek(0)
    sys.exit(f"the server did not start:\n{log.read()}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=600)
    arguments = parser.parse_args()
    st = shutil.which("st") or os.path.join(os.path.dirname(sys.executable), "st")
    folder = tempfile.mkdtemp(prefix="petserver-fuzz-")
    process, base = start_server(os.path.abspath(arguments.binary), folder)
    try:
        environment = dict(os.environ, PETSERVER_URL=base, SCHEMATHESIS_HOOKS="petserver_hooks",
                           PYTHONPATH=os.path.join(HERE, "schemathesis") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        command = [st, "run", f"{base}/openapi.json", "--checks", CHECKS + ",refused_requests_change_nothing",
                   "--exclude-path", "/dogs/live", "--max-examples", str(arguments.examples), "--seed", str(arguments.seed),
                   "--workers", "1", "--generation-deterministic"]
        print("$ " + " ".join(command), flush=True)
        try:
            status = subprocess.run(command, env=environment, cwd=folder, timeout=arguments.time_limit).returncode
        except subprocess.TimeoutExpired:
            print(f"schemathesis ran past {arguments.time_limit} s", file=sys.stderr)
            status = 1
        if process.poll() is not None:
            print("the server exited during the run", file=sys.stderr)
            status = 1
        return status
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
