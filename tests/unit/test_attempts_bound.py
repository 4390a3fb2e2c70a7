"""The bound on a seat's kept refusals (domain.attempts): KEPT_PER_WINDOW in any WINDOW_SECONDS, KEPT_PER_SEAT in all,
each seat on its own."""

from __future__ import annotations

from uuid import uuid4

from domain import attempts as attempts_module
from domain.attempts import KEPT_PER_WINDOW, WINDOW_SECONDS, Attempts


def refused(attempts: Attempts, actor: str, times: int) -> float:
    """`times` refusals of `actor` kept; the time of the last."""
    for _ in range(times):
        attempts.refuse(actor, {"type": "pass"}, "ER-3.1", "not your turn", 5, "test")
    return attempts.recent[actor][-1]


def test_a_seat_s_refusals_are_kept_until_the_window_holds_its_bound_then_wait_for_the_oldest_to_leave_it():
    attempts = Attempts.open(uuid4())
    last = refused(attempts, "seat:1", KEPT_PER_WINDOW - 1)
    assert attempts.wait_before_keeping("seat:1", last) == 0
    refused(attempts, "seat:1", 1)
    oldest = attempts.recent["seat:1"][0]
    wait = attempts.wait_before_keeping("seat:1", oldest + 10)
    assert wait == WINDOW_SECONDS - 10
    assert attempts.wait_before_keeping("seat:1", oldest + WINDOW_SECONDS) == 0
    assert attempts.wait_before_keeping("seat:0", oldest) == 0, "another seat is not held back"


def test_a_seat_keeps_refusals_up_to_its_bound_for_the_game(monkeypatch):
    monkeypatch.setattr(attempts_module, "KEPT_PER_SEAT", 4)
    attempts = Attempts.open(uuid4())
    refused(attempts, "seat:2", 3)
    assert attempts.keeps_more("seat:2")
    refused(attempts, "seat:2", 1)
    assert not attempts.keeps_more("seat:2") and attempts.keeps_more("seat:0")
    assert attempts.kept == {"seat:2": 4} and len(attempts.recent["seat:2"]) == 4
