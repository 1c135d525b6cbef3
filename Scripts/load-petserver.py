#!/usr/bin/env python3
"""Drives Samples/PetServer under load and reports requests a second, latency and errors.

    Scripts/load-petserver.py --server PATH [--clients 16] [--seconds 10] [--max-requests 200000]
                              [--processes 1] [--database-url postgres://...]

Starts PROCESSES server processes (the built PetServer executable at PATH, each on a free loopback
port, all on one store: a SQLite file in a temporary folder, or the PostgreSQL database that
--database-url names, which should be empty), then runs CLIENTS clients for SECONDS (or until
MAX-REQUESTS requests in all), each with a keep-alive connection to one server (clients are
spread over the processes in turn). Each client repeats a mix that a small app sees:

    POST /people, POST /dogs (with that person as master), GET /people/{personID},
    GET /dogs?limit=20, PATCH /people/{personID}

and checks each answer's status. It prints one line: requests, requests a second, the median and
99th-percentile latency, and errors (any answer with an unexpected status, or a failed
connection), and exits 1 when there was an error. The servers are stopped with SIGTERM at the end,
and must exit with status 0. Loopback only; bounded in time and in count.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


def start_servers(executable, count, database_url, folder):
    """Starts `count` servers on one store; returns [(process, port)] once each listens."""
    servers = []
    environment = dict(os.environ, DATABASE_URL=database_url or "")
    for index in range(count):
        log = open(os.path.join(folder, f"server-{index}.log"), "w+")
        process = subprocess.Popen([executable, "--port", "0"], cwd=folder, env=environment, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        port = None
        while port is None:
            log.seek(0)
            match = re.search(r"PetServer listening on 127\.0\.0\.1:(\d+)", log.read())
            if match:
                port = int(match.group(1))
            elif process.poll() is not None or time.time() > deadline:
                log.seek(0)
                sys.exit(f"server {index} did not start: {log.read()}")
            else:
                time.sleep(0.02)
        servers.append((process, port))
    return servers


class Client(threading.Thread):
    """One client: the request mix on one keep-alive connection until the deadline or the budget."""

    def __init__(self, number, port, deadline, budget):
        super().__init__(daemon=True)
        self.number = number
        self.port = port
        self.deadline = deadline
        self.budget = budget
        self.latencies = []
        self.errors = []

    def request(self, connection, method, path, body, expected):
        data = None if body is None else json.dumps(body)
        start = time.perf_counter()
        try:
            connection.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
            answer = connection.getresponse()
            answer.read()
            status = answer.status
        except (OSError, http.client.HTTPException) as error:
            self.errors.append(f"{method} {path}: {error}")
            connection.close()
            return
        self.latencies.append(time.perf_counter() - start)
        if status != expected:
            self.errors.append(f"{method} {path}: {status}, expected {expected}")

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        round_number = 0
        while time.time() < self.deadline and self.budget.take(5):
            person = self.number * 1_000_000 + round_number
            round_number += 1
            self.request(connection, "POST", "/people", {"personID": person, "name": f"client {self.number}"}, 201)
            self.request(connection, "POST", "/dogs", {"nickname": f"dog {person}", "personID": person}, 201)
            self.request(connection, "GET", f"/people/{person}", None, 200)
            self.request(connection, "GET", "/dogs?limit=20", None, 200)
            self.request(connection, "PATCH", f"/people/{person}", {"isActive": False}, 200)
        connection.close()


class Budget:
    """The requests left, shared by the clients."""

    def __init__(self, total):
        self.left = total
        self.lock = threading.Lock()

    def take(self, count):
        with self.lock:
            if self.left < count:
                return False
            self.left -= count
            return True


def percentile(sorted_values, fraction):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * fraction))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the built PetServer executable")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--max-requests", type=int, default=200_000)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="an empty PostgreSQL database (default: a SQLite file)")
    options = parser.parse_args()
    if options.seconds > 600 or options.clients > 256 or options.processes > 8:
        sys.exit("bounded: at most 600 seconds, 256 clients and 8 processes")

    folder = tempfile.mkdtemp(prefix="petserver-load-")
    servers = start_servers(os.path.abspath(options.server), options.processes, options.database_url, folder)
    try:
        deadline = time.time() + options.seconds
        budget = Budget(options.max_requests)
        clients = [Client(number, servers[number % len(servers)][1], deadline, budget) for number in range(options.clients)]
        started = time.perf_counter()
        for client in clients:
            client.start()
        for client in clients:
            client.join(options.seconds + 120)
        elapsed = time.perf_counter() - started
    finally:
        statuses = []
        for process, _ in servers:
            process.send_signal(signal.SIGTERM)
        for process, _ in servers:
            try:
                statuses.append(process.wait(60))
            except subprocess.TimeoutExpired:
                process.kill()
                statuses.append("killed after 60 s")
        shutil.rmtree(folder, ignore_errors=True)

    latencies = sorted(latency for client in clients for latency in client.latencies)
    errors = [error for client in clients for error in client.errors]
    store = "PostgreSQL" if options.database_url else "SQLite"
    if latencies:
        print(f"{store}, {options.processes} process(es), {options.clients} clients: {len(latencies)} requests in {elapsed:.1f} s, "
              f"{len(latencies) / elapsed:.0f} a second, p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, {len(errors)} errors")
    for error in errors[:10]:
        print("error:", error)
    if any(status != 0 for status in statuses):
        print("a server did not exit cleanly:", statuses)
        return 1
    return 1 if errors or not latencies else 0


if __name__ == "__main__":
    sys.exit(main())
