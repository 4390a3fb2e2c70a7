"""A store closing while its duty loop is mid-round (service.store.application.Store.before_close): the round ends
before the connections close. sqlite3 closing a connection another thread is reading through crashed CI's process
(a segmentation fault, 2026-11-28, a bot's game read in the duty thread while a test's teardown closed the store)."""

from __future__ import annotations

import threading

from service.duty import Duty
from service.store.application import Store


class Blocking:
    """A duty part whose round waits to be let go, then reads the store (what a bot's game read does)."""

    topics: tuple[str, ...] = ()

    def __init__(self, store: Store):
        self.store = store
        self.entered = threading.Event()
        self.go = threading.Event()
        self.read_after_go: list[int] = []

    def notice(self, notification) -> None:
        pass

    def act(self, leases, claim) -> None:
        if self.entered.is_set():
            return
        self.entered.set()
        self.go.wait(10)
        self.read_after_go.append(self.store.recorder.max_notification_id() or 0)


def test_closing_the_store_waits_for_the_duty_round_reading_it_and_then_ends_the_loop(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'arbiter.sqlite'}")
    duty = Duty(store)
    part = Blocking(store)
    duty.add(part)
    duty.start()
    assert part.entered.wait(5), "the loop's round began"
    closer = threading.Thread(target=store.close)
    closer.start()
    closer.join(0.3)
    assert closer.is_alive(), "close waits while a round is reading the store"
    part.go.set()
    closer.join(10)
    assert not closer.is_alive() and store.closed
    assert part.read_after_go == [0], "the round's read went through on an open connection"
    assert not duty.running, "the loop ended with its store"
