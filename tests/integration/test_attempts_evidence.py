"""Refused attempts are evidence too: every checkpoint signs the game's refused attempts (how many, and their chain's
head) beside its events' head, a checkpoint is written each time they reach a multiple of the interval, and deleting
or rolling back refused attempts, or keeping a dispute that names an attempt the store lost, fails `verify --all`
(exit 1, naming the game and what is gone), on a SQLite file and on PostgreSQL (docs/evidence.md)."""

from __future__ import annotations

import pytest

from domain.attempts import attempts_id
from service.errors import IllegalMove
from tests.integration.evidence_support import new_table, verify_all
from tests.integration.service_support import RawEvents
from service.play.commands import FileDispute, PlayMove

STORES = ["sqlite", "postgres"]
REFUSALS = 5


def refuse(arbiter, table, times: int) -> list[int]:
    """`times` refused attempts by a seat that is not to act; their numbers."""
    seat = arbiter.app.game(table.gid).state.to_act
    bystander = next(s for s in range(len(table.tokens)) if s != seat)
    numbers = []
    for _ in range(times):
        with pytest.raises(IllegalMove) as refused:
            arbiter.play.move(table.tokens[bystander], PlayMove.from_body(table.id, {"type": "pass"}))
        numbers.append(refused.value.attempt)
    return numbers


@pytest.fixture(params=STORES)
def refused(request, stores, facades):
    """(kind, url, arbiter, the game with REFUSALS refused attempts, a bystander game with some too)."""
    kind, url = request.param, stores.url(request.param)
    arbiter = facades(url, checkpoint_every=2)
    table = new_table(arbiter, 3).play(3)
    assert refuse(arbiter, table, REFUSALS) == list(range(1, REFUSALS + 1))
    bystander = new_table(arbiter, 3).play(2)
    refuse(arbiter, bystander, 2)
    return kind, url, arbiter, table, bystander


def delete_attempts(kind: str, url: str, table, *entries: int) -> None:
    """Delete refused attempts by number (entry n + 1 of the stream; 0 deletes the stream's opening entry too)."""
    raw = RawEvents(kind, url)
    try:
        for n in entries:
            raw.delete(attempts_id(table.gid), n + 1)
    finally:
        raw.close()


def verify_fails(url: str, *words: str) -> str:
    code, output, exception = verify_all(url)
    assert code == 1, output
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    assert "Traceback" not in output
    flat = " ".join(output.split())
    for word in words:
        assert word in flat, output
    return flat


def test_a_checkpoint_signs_the_refused_attempts_when_they_reach_a_multiple_of_the_interval(refused):
    kind, url, arbiter, table, _ = refused
    lines = arbiter.evidence.checkpoints(limit=1000, game=table.id)
    signed = [(line["reason"], line["attempts"]) for line in lines if line["reason"] == "refused"]
    assert signed == [("refused", 2), ("refused", 4)]
    head = arbiter.app.stored_attempts(table.gid)[4].__dict__  # the stream entry of refused attempt 4
    assert lines[-1]["attempts_head"] and lines[-1]["format"] == "arbiter.checkpoint/3"
    assert head["originator_version"] == 5


def test_untouched_refused_attempts_verify_and_exit_0(refused):
    code, output, _ = verify_all(refused[1])
    assert code == 0, output


def test_deleting_every_refused_attempt_of_a_game_is_detected_naming_the_game(refused):
    kind, url, arbiter, table, bystander = refused
    delete_attempts(kind, url, table, *range(REFUSALS, -1, -1))
    verify_fails(url, f"{table.id}: store holds 0 refused attempt(s), signed 4", "all its 4 refused attempt(s) are gone")
    report = arbiter.verification.verify(table.id)
    assert report["ok"] is False and report["checkpoint"]["attempts"] == {"stored": 0, "signed": 4}
    assert arbiter.verification.verify(bystander.id)["ok"] is True


def test_deleting_the_last_refused_attempts_back_past_the_checkpoint_is_detected_as_a_rollback(refused):
    kind, url, arbiter, table, _ = refused
    delete_attempts(kind, url, table, 5, 4, 3)
    verify_fails(url, table.id, "refused attempts truncated or rolled back", "refused attempts 3 to 4 are gone")


def test_deleting_a_middle_refused_attempt_breaks_the_refused_attempts_chain(refused):
    kind, url, arbiter, table, _ = refused
    delete_attempts(kind, url, table, 2)
    verify_fails(url, table.id, "refused attempts' chain breaks at entry 3 (refused attempt 2)",
                 "an event was deleted")


@pytest.mark.parametrize("kind", STORES)
def test_a_dispute_naming_a_refused_attempt_the_store_no_longer_holds_is_reported_as_damage(stores, facades, kind):
    url = stores.url(kind)
    arbiter = facades(url)  # every 10: no checkpoint signs the attempts, only the dispute names them
    table = new_table(arbiter, 3).play(2)
    seat = arbiter.app.game(table.gid).state.to_act
    bystander = next(s for s in range(3) if s != seat)
    with pytest.raises(IllegalMove) as refusal:
        arbiter.play.move(table.tokens[bystander], PlayMove.from_body(table.id, {"type": "pass"}))
    arbiter.play.file_dispute(table.tokens[bystander], FileDispute.from_body(table.id, {"attempt": refusal.value.attempt, "claim": "it was my turn"}))
    assert verify_all(url)[0] == 0
    delete_attempts(kind, url, table, 1, 0)

    flat = verify_fails(url, table.id, "dispute 1 names refused attempt 1, which the store no longer holds")
    assert "refused attempts were deleted" in flat
