"""Background jobs across hosts (docs/analysis.md "Jobs"): two `arbiter serve` on one PostgreSQL schema, or on one
SQLite file (two servers of one machine), each in its own folder (tests/e2e/hosts_support.py), a lease of 3 seconds. The same analysis asked of both hosts is one job, run by one process; the
host running it is killed (SIGKILL to its process group, as a machine that dies) and the other takes the job once
the lease runs out and starts it again; the referee's cancel, sent to the survivor, stops it within about a second;
a finished job's lines answer a poll on any host. PostgreSQL is skipped without ARBITER_TEST_POSTGRES_URL."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import sqlite3

import psycopg
import pytest

from .hosts_support import POSTGRES_ENV, Host, call, drop_schema, schema_url, signing_key_pem

RECORD = Path(__file__).resolve().parent.parent / "records" / "batallion" / "selfplay-01-3p.json"
LEASE = 3
COLUMNS = "status, holder, attempts, done"


def row(base: str, schema: str, job_id: str) -> dict | None:
    """The job's row, read from the database itself (`base` a SQLite file's path when `schema` is None)."""
    if schema is None:
        with sqlite3.connect(base) as conn:
            found = conn.execute(f"SELECT {COLUMNS} FROM arbiter_jobs WHERE id = ?", (job_id,)).fetchone()
    else:
        with psycopg.connect(base.split("?", 1)[0], autocommit=True) as conn:
            found = conn.execute(f'SELECT {COLUMNS} FROM "{schema}".arbiter_jobs WHERE id = %s', (job_id,)).fetchone()
    return None if found is None else dict(zip(COLUMNS.split(", "), found))


def until(what, seconds: float, step: float = 0.1):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = what()
        if got:
            return got
        time.sleep(step)
    raise AssertionError(f"not within {seconds} s")


@pytest.mark.parametrize("store", ["postgres", "sqlite"])
def test_a_job_is_one_job_across_hosts_and_passes_to_the_survivor_when_its_host_dies(tmp_path, store):
    if store == "postgres":
        if not os.environ.get(POSTGRES_ENV):
            pytest.skip(f"{POSTGRES_ENV} is not set")
        base = os.environ[POSTGRES_ENV]
        schema, url = schema_url(base, "arbiter_jobs_e2e")
    else:
        base, schema = str(tmp_path / "jobs.db"), None
        url = f"sqlite:///{base}"
    pem = signing_key_pem()
    env = {"ARBITER_JOB_LEASE_SECONDS": str(LEASE), "ARBITER_ANALYSIS_WORKERS": "1"}
    hosts = [Host(name, tmp_path / name, url, pem, env=env) for name in ("a", "b")]
    try:
        hosts[0].start().wait_ready()  # the first creates the schema
        hosts[1].start().wait_ready()
        status, created = call(hosts[0].port, "POST", "/records", body=json.loads(RECORD.read_text()))
        assert status == 201, created
        gid, referee = created["id"], created["referee_token"]
        ask = {"seat": 0, "samples": 1000, "seed": "hosts"}  # seconds of work on one worker
        status, job = call(hosts[0].port, "POST", f"/games/{gid}/analysis", referee, ask)
        assert status == 202, job
        status, same = call(hosts[1].port, "POST", f"/games/{gid}/analysis", referee, ask)
        assert status == 202 and same["id"] == job["id"]  # asked of the other host: the same job
        store_id = f"analysis:{gid}:{job['id']}"
        first = until(lambda: (r := row(base, schema, store_id)) and r["status"] == "running" and r, 20)
        assert first["attempts"] == 1
        pid = int(first["holder"].split("/")[1])
        runs = next(h for h in hosts if pid in h.pids())
        survivor = next(h for h in hosts if h is not runs)
        runs.kill()
        died = time.monotonic()
        taken = until(lambda: (r := row(base, schema, store_id)) and r["attempts"] == 2 and r, LEASE + 10)
        assert taken["status"] == "running" and taken["holder"] != first["holder"]
        took = time.monotonic() - died
        assert took < LEASE + 5
        print(f"\nthe survivor took the job {took:.1f} s after its host was killed (lease {LEASE} s)")
        assert int(taken["holder"].split("/")[1]) in survivor.pids()
        polled = call(survivor.port, "GET", f"/games/{gid}/analysis/{job['id']}", referee)[1]
        assert polled["status"] == "running" and polled["queue"]["estimate_seconds"] is not None
        asked = time.monotonic()
        status, cancelled = call(survivor.port, "DELETE", f"/games/{gid}/analysis/{job['id']}", referee)
        assert status == 200, cancelled
        until(lambda: row(base, schema, store_id)["status"] == "cancelled", 5, step=0.05)
        answered = time.monotonic() - asked
        assert answered < 2.0  # answered by the running worker within about a heartbeat
        print(f"the running job was cancelled {answered * 1000:.0f} ms after the DELETE was sent")
        assert row(base, schema, store_id)["attempts"] == 2  # never taken a third time
        small = {"seat": 1, "samples": 2, "seed": "hosts"}
        status, quick = call(survivor.port, "POST", f"/games/{gid}/analysis", referee, small)
        done = until(lambda: (j := call(survivor.port, "GET", f"/games/{gid}/analysis/{quick['id']}", referee)[1])
                     and j["status"] == "done" and j, 120, step=0.3)
        assert done["lines"] and done["progress"]["done"] == done["progress"]["total"]
    finally:
        for h in hosts:
            h.stop()
        if schema is not None:
            drop_schema(base, schema)
