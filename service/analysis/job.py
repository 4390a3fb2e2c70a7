"""One computer analysis job (service.analysis.jobs): what makes two requests the same job, and the job's state,
progress and lines as the HTTP API and the replay page answer them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from uuid import UUID


@dataclass(frozen=True)
class JobKey:
    """What makes two requests the same job."""

    game: UUID
    version: int
    seat: int
    samples: int
    seed: str


@dataclass
class Job:
    """One analysis job: its state, its progress and its lines as they come."""

    id: str
    key: JobKey
    viewers: set = field(default_factory=set)  # who asked (the stream tells them its progress)
    callers: set = field(default_factory=set)  # who asked, as counted by the per-caller bound
    status: str = "running"
    done: int = 0
    total: int | None = None
    lines: list = field(default_factory=list)
    error: str | None = None
    started: float = field(default_factory=time.time)
    finished: float | None = None

    def as_dict(self, with_lines: bool = True) -> dict:
        out = {"id": self.id, "game": str(self.key.game), "version": self.key.version, "seat": self.key.seat,
               "samples": self.key.samples, "seed": self.key.seed, "status": self.status,
               "progress": {"done": self.done, "total": self.total}, "analysed": len(self.lines),
               "started": iso(self.started), "finished": iso(self.finished) if self.finished else None}
        if self.error is not None:
            out["error"] = self.error
        if with_lines and self.status == "done":
            out["lines"] = list(self.lines)
        return out


def iso(at: float) -> str:
    """A time as ISO 8601 in UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))
