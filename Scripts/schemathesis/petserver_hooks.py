"""Schemathesis hooks for the PetServer sample: a request the server refuses (a 4xx) must leave
the store as it was. Before each call the hook reads every person and dog through the API; after
a 4xx answer the check reads them again and fails when anything changed.

Loaded by Scripts/fuzz-petserver.py through SCHEMATHESIS_HOOKS; PETSERVER_URL is the server's
base URL. Schemathesis runs one request at a time (one worker), so nothing else writes between
the two reads.
"""
import os

import requests
import schemathesis

BASE = os.environ["PETSERVER_URL"].rstrip("/")
_before = {}


def _store():
    """Every person and dog, as the API lists them (pages of 1,000 until one is short)."""
    state = []
    for path in ("/people", "/dogs"):
        offset = 0
        while True:
            page = requests.get(f"{BASE}{path}?offset={offset}&limit=1000", timeout=30)
            page.raise_for_status()
            items = page.json()
            state.append(page.text)
            if len(items) < 1000:
                break
            offset += 1000
    return state


@schemathesis.hook
def before_call(ctx, case, kwargs):
    if case.method.upper() in ("POST", "PATCH", "PUT", "DELETE"):
        _before[id(case)] = _store()


@schemathesis.check
def refused_requests_change_nothing(ctx, response, case):
    """A 4xx answer to a write leaves every person and dog as they were."""
    before = _before.pop(id(case), None)
    if before is None or not 400 <= response.status_code < 500:
        return None
    if _store() != before:
        raise AssertionError(f"the store changed although the request was refused with {response.status_code}")
    return None
