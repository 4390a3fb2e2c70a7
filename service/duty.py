"""The duty loop: what every server process (every host, every gunicorn worker) runs beside its requests, so that
nothing the service must do lives in one host's memory.

One thread per process follows the store's notification log (one query per round, whatever the number of games),
hands each notification to its duties, and lets each duty act on what it holds the lease of
(service.adapters.leases): the bots seated at live tables (service.play.bot_duty) and the tournaments that create
their next games and rounds (service.tournaments.duty). Whatever a duty plays is recorded in the store; a host that
dies leaves nothing behind but its leases, which pass to a host still running within CLAIM_SECONDS of the database
dropping them.

A duty is an object with `topics` (the event topics it must see from the store's beginning when the loop starts:
what it is responsible for), `notice(notification)` (every notification from then on) and `act(leases, claim)`
(one round: `claim` says whether to try the leases it is missing).
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from typing import Any, Protocol

from .adapters.leases import Leases, leases_for

ROUND_SECONDS = 0.25  # how often the loop reads the news and acts (a bot answers a move within about this)
CLAIM_SECONDS = 1.0  # how often it tries the leases it is missing (a dead host's leases pass within about this)
BATCH = 500
log = logging.getLogger("arbiter.duty")


class DutyPart(Protocol):
    topics: tuple[str, ...]

    def notice(self, notification: Any) -> None: ...

    def act(self, leases: Leases, claim: bool) -> None: ...


class Duty:
    """One process's duty loop over one store."""

    def __init__(self, app: Any):
        self.app = app  # the Referee: its recorder and mapper
        self.parts: list[DutyPart] = []
        self._leases: Leases | None = None
        self._position: int | None = None
        self._last_claim = 0.0
        self._stopped = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()
        self._ticking = threading.Lock()

    @property
    def leases(self) -> Leases:
        with self._guard:
            if self._leases is None:
                self._leases = leases_for(self.app.database_url)
            return self._leases

    def add(self, part: DutyPart) -> None:
        """A part joins the loop; a loop already running reads the news from the beginning again for it (each part
        takes a notification twice without harm)."""
        with self._ticking:
            self.parts.append(part)
            self._position = None

    def start(self) -> "Duty":
        """Start the loop (once; later calls only wake it)."""
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="arbiter-duty", daemon=True)
                self._thread.start()
                atexit.register(self.stop)
                before_close = getattr(self.app, "before_close", None)
                if before_close is not None:
                    before_close(self._halt)  # the round under way ends before the store's connections close
        self.wake()
        return self

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def wake(self) -> None:
        """Act now rather than at the next round (something was just recorded here)."""
        self._wake.set()

    def claim_now(self) -> None:
        """Try the missing leases at the next round rather than when CLAIM_SECONDS are up."""
        self._last_claim = 0.0

    def stop(self) -> None:
        """Stop the loop and give back every lease (a clean shutdown: other hosts take them at once), after each part's
        last word while the store is open (the publishing part covers and publishes what moved since its last round:
        a host that stops keeps the promises it handed out, docs/evidence.md "The maximum merge delay")."""
        first = not self._stopped.is_set()
        self._halt()
        if first:
            self._last_words()
        if self._leases is not None:
            self._leases.close()

    def abandon(self) -> None:
        """Stop as a host that dies does: the loop ends and the leases drop with the connection, released by nobody,
        and no part has a last word."""
        self._halt()
        if self._leases is not None:
            self._leases.close()

    def _last_words(self) -> None:
        parts = [p for p in self.parts if callable(getattr(p, "at_stop", None))]
        if not parts or self._thread is None or getattr(self.app, "closed", False):
            return
        if not self._ticking.acquire(timeout=5):  # a round still running past the join: leave it be
            return
        try:
            self._follow()  # what was recorded since the last round, so that the parts know of it
            for part in parts:
                part.at_stop()
        except Exception as e:  # noqa: BLE001 - a store going away under a shutdown: the next host covers it
            if not getattr(self.app, "closed", False):
                log.warning("the duty loop's last round at shutdown did not complete: %s", type(e).__name__)
        finally:
            self._ticking.release()

    def _halt(self) -> None:
        self._stopped.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stopped.is_set():
            if getattr(self.app, "closed", False):
                self.stop()  # the store was closed under the loop (a test's teardown, a shutdown): nothing more to do
                return
            try:
                self.tick()
            except Exception:  # noqa: BLE001 - the loop must outlive a dropped connection or a damaged game
                if getattr(self.app, "closed", False):
                    self.stop()  # the store was closed during this round: its error is the closing, nothing to log
                    return
                log.exception("the duty loop met an error; going on in a second")
                self._stopped.wait(1.0)
            self._wake.wait(ROUND_SECONDS)
            self._wake.clear()

    def tick(self) -> None:
        """One round: read the news, then let every duty act on what it holds (trying missing leases now and then)."""
        with self._ticking:
            if self._stopped.is_set() and self._thread is not None:
                return
            leases = self.leases
            if leases.held:
                leases.alive()  # a lost connection gives up every lease before anything is played under it
            self._follow()
            now = time.monotonic()
            claim = now - self._last_claim >= CLAIM_SECONDS
            if claim:
                self._last_claim = now
            for part in self.parts:
                part.act(leases, claim)

    def _follow(self) -> None:
        recorder = self.app.recorder
        if self._position is None:  # the first round: what each duty is responsible for, from the beginning
            top = recorder.max_notification_id() or 0
            topics = sorted({t for part in self.parts for t in part.topics})
            start = 0
            while topics:
                batch = recorder.select_notifications(start=start, limit=BATCH, stop=top, topics=topics,
                                                      inclusive_of_start=False)
                for n in batch:
                    start = n.id
                    self._notice(n)
                if len(batch) < BATCH:
                    break
            self._position = top
        while True:
            batch = recorder.select_notifications(start=self._position, limit=BATCH, inclusive_of_start=False)
            for n in batch:
                self._position = n.id
                self._notice(n)
            if len(batch) < BATCH:
                return

    def _notice(self, n: Any) -> None:
        for part in self.parts:
            part.notice(n)
