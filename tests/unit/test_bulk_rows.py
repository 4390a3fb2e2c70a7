"""`arbiter import` writes a plain event's stored row and chain hash with orjson (service.adapters.canonical_json): the same
bytes the library's transcoder and domain.audit write, over random games of every registered game; and its
timestamps are the text `datetime.isoformat` writes."""

from __future__ import annotations

import itertools
import random
import re
from datetime import datetime, timedelta, timezone
from uuid import UUID

import pytest

from domain.autoplay import game_rng, random_game
from domain.games import DECIDERS, SPECS
from domain.records import parse
from service.offline import bulk_import
from service.play.referee import Referee
from service.adapters.canonical_json import plain

GAMES = sorted(DECIDERS)


def _fixed(monkeypatch) -> None:
    """Ids, tokens and times that repeat from one build to the next."""
    ids = itertools.count()
    monkeypatch.setattr(bulk_import, "uuid4", lambda: UUID(int=next(ids)))
    times = itertools.count()
    start = datetime(2026, 11, 23, 13, 44, 36, tzinfo=timezone.utc)
    monkeypatch.setattr(bulk_import, "_utc_now", lambda: (start + timedelta(microseconds=7 * next(times))).isoformat())
    tokens = itertools.count()
    monkeypatch.setattr("service.store.tokens.new_token", lambda: f"token{next(tokens)}")


def _builds(mapper, docs: list[dict]) -> list:
    return [bulk_import.build(parse(doc), mapper) for doc in docs]


@pytest.mark.parametrize("game", GAMES)
def test_orjson_rows_and_hashes_are_the_library_s(game, monkeypatch):
    d = DECIDERS[game]
    rng = random.Random(game)
    docs = []
    for i in range(8):
        options = rng.choice(SPECS[game].example_options)
        for n in rng.sample(range(2, 7), 5):
            try:
                d.configure(options, [{"name": "x"}] * n, None, None)
                break
            except Exception:
                continue
        players = [{"name": f"P{k} ☃\u2028\\\"x"} for k in range(n)]
        docs.append(random_game(game, options, players, f"{i:04x}", game_rng(3, i), max_moves=rng.choice([5, 400]),
                                chatter=0.1))
    mapper = Referee("memory://").mapper
    _fixed(monkeypatch)
    fast = _builds(mapper, docs)
    _fixed(monkeypatch)
    monkeypatch.setattr(bulk_import, "plain", lambda value: False)  # the library's road for every event
    slow = _builds(mapper, docs)
    assert any(b is not None for b in fast)
    for a, b in zip(fast, slow, strict=True):
        if a is None:
            assert b is None
            continue
        assert a.head == b.head
        assert [(r.originator_id, r.originator_version, r.topic, r.state) for r in a.rows] == \
            [(r.originator_id, r.originator_version, r.topic, r.state) for r in b.rows]


def test_values_that_are_not_plain_take_the_library_s_road():
    assert plain({"a": [1, "x", None, True, {"b": []}], "c": 2**64 - 1})
    for value in ({"a": 1.5}, {"a": (1, 2)}, {"a": 2**64}, {"a": -2**63 - 1}, {1: "a"}, {"a": datetime.now()},
                  {"a": [UUID(int=1)]}, {"a": {"b": {"c": [0.0]}}}):
        assert not plain(value)


def test_a_timestamp_is_the_text_isoformat_writes():
    pattern = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{6})?\+00:00")
    before = datetime.now(timezone.utc)
    texts = [bulk_import._utc_now() for _ in range(2000)]
    after = datetime.now(timezone.utc)
    for text in texts:
        assert pattern.fullmatch(text)
        when = datetime.fromisoformat(text)
        assert when.isoformat() == text and before - timedelta(milliseconds=1) <= when <= after
    assert texts == sorted(texts)
