"""The rules of the store's background jobs (docs/analysis.md "Jobs"), as pure functions of job rows: which job a
worker may take, whether an asker may add one more, where a queued job stands and how long it should take.

No I/O here: service.jobs.table reads and writes the rows, service.jobs.runner runs them; tests/unit checks
these rules on rows made by hand.

A job row's life: `queued` (asked, waiting for a worker) -> `running` (a worker holds its lease) -> `done` (its
result stored), `failed` (its error stored) or `cancelled` (by whoever started it, or the referee). A `running` job
whose lease ran out (its worker's host died) may be taken by another worker, which starts it again from its start.
Asked again, a `failed` or `cancelled` job is queued again; a `queued`, `running` or `done` one is answered as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
ACTIVE = (QUEUED, RUNNING)
STATUSES = (QUEUED, RUNNING, DONE, FAILED, CANCELLED)

# what a unit of work costs, in seconds, before a job of that kind and game has been measured (a guess on 2 cores:
# an analysis decision at its default samples; a fair-play decision judged both ways at the report's settings)
DEFAULT_COST = {"analysis": 0.5, "fairplay": 0.05}
COST_HISTORY = 20  # the last finished jobs of a kind and game whose cost per unit the estimate averages


@dataclass(frozen=True)
class Limits:
    """How many active (queued or running) jobs one asker, one address, and the whole deployment may have."""

    per_asker: int = 2  # a token, or a browser's own anonymous id
    per_address: int = 6  # every asker behind one address together (a school, a club, a home)
    queued: int = 50  # queued jobs in the whole deployment


@dataclass
class JobRow:
    """One stored job, as the rules read it."""

    id: str
    kind: str
    game: str  # the game's id (its spec's): past jobs of the same game price the estimate
    status: str
    owner: str = ""  # who started it: a token's hash, a browser's anonymous id's hash, or an address
    address: str = ""
    created: float = 0.0
    started: float | None = None
    finished: float | None = None
    holder: str | None = None
    lease_until: float | None = None
    done: int = 0
    total: int | None = None
    units: int = 1  # the units of work it is expected to take (its total, once known)
    seconds: float | None = None  # what it took, once done
    cancel: bool = False
    subject: str = ""  # what it is about: a game's id (analysis), a tournament's id (fair-play report)
    request: dict = field(default_factory=dict)  # what it computes, as its kind reads it
    result: Any = None
    error: str | None = None

    @property
    def remaining(self) -> int:
        """Units of work still to do (the total once known, else the expected units)."""
        total = self.total if self.total is not None else self.units
        return max(0, total - self.done)


def claimable(row: JobRow, now: float) -> bool:
    """Whether a worker may take this job now: queued, or running under a lease that ran out (its worker is gone)."""
    if row.status == QUEUED:
        return not row.cancel
    return row.status == RUNNING and row.lease_until is not None and row.lease_until < now


def requeued_on_ask(status: str) -> bool:
    """Whether asking for a job again queues it again (it failed or was cancelled) rather than answering it."""
    return status in (FAILED, CANCELLED)


def refusal(active: Iterable[JobRow], owner: str, address: str, limits: Limits, what: str) -> str | None:
    """Why a new job of `owner` from `address` may not be queued now (None: it may), given the active jobs."""
    active = [r for r in active if r.status in ACTIVE]
    mine = sum(1 for r in active if r.owner == owner)
    if mine >= limits.per_asker:
        return (f"you have {mine} background jobs queued or running already (at most {limits.per_asker} at a time "
                f"for one asker): cancel one, or ask again once one is done")
    if address and sum(1 for r in active if r.address == address) >= limits.per_address:
        return (f"{limits.per_address} background jobs are queued or running for your network address already (at "
                f"most {limits.per_address} at a time for one address, whoever asks): try again in a little while")
    if sum(1 for r in active if r.status == QUEUED) >= limits.queued:
        return (f"{limits.queued} background jobs (analyses, fair-play reports) wait in the queue already, its most: "
                f"try again in a little while")
    return None


def queue(rows: Iterable[JobRow]) -> list[JobRow]:
    """The queued jobs, first to be taken first (oldest first; the id breaks a tie)."""
    return sorted((r for r in rows if r.status == QUEUED and not r.cancel), key=lambda r: (r.created, r.id))


def position(rows: Iterable[JobRow], job_id: str) -> int | None:
    """A queued job's place in the queue (1: next to be taken); None when it is not queued."""
    for n, r in enumerate(queue(rows), 1):
        if r.id == job_id:
            return n
    return None


def cost_per_unit(history: Iterable[JobRow], kind: str) -> float:
    """Seconds a unit of work took in the finished jobs given (total seconds over total units); the kind's default
    guess while none was measured."""
    seconds = units = 0.0
    for r in history:
        if r.status == DONE and r.seconds is not None and r.total:
            seconds, units = seconds + r.seconds, units + r.total
    return seconds / units if units else DEFAULT_COST.get(kind, 1.0)


def estimate(rows: Iterable[JobRow], job_id: str, costs: dict[str, float]) -> float | None:
    """Seconds until the job is done, from now: its own remaining units and those of every job before it (running
    ones, then the queued ones ahead), each at its own measured cost per unit (`costs` by job id: see
    `cost_per_unit`; a job missing there at its kind's guess), done one after the other (the jobs share the same
    cores). None for a job not queued or running."""
    rows = list(rows)
    me = next((r for r in rows if r.id == job_id), None)
    if me is None or me.status not in ACTIVE:
        return None

    def cost(r: JobRow) -> float:
        return costs.get(r.id, DEFAULT_COST.get(r.kind, 1.0)) * r.remaining

    if me.status == RUNNING:
        return cost(me)
    ahead = [r for r in rows if r.status == RUNNING]
    for r in queue(rows):
        if r.id == job_id:
            break
        ahead.append(r)
    return sum(cost(r) for r in ahead) + cost(me)


def may_cancel(row: JobRow, asker: str, is_referee: bool) -> bool:
    """Whether this asker may cancel the job: the one who started it, or the referee (of its game, its tournament)."""
    return is_referee or (bool(asker) and row.owner == asker)
