"""service.verification.plain_rows (the plain row decoder) decodes and hashes a plain game's rows itself (orjson, the stored timestamp text) instead of
through the library's mapper and domain.audit (json): the two must agree on every row the fast decoding takes.

- over random games of every registered game, stored through the service (table talk, automatic passes, ended and
  unfinished games): every game is plain, each chain hash is domain.audit's, and the Created and SeedRevealed events
  are the mapper's;
- the canonical JSON orjson writes is domain.audit's for every JSON value without a float;
- a row orjson decodes without a float is one json decodes to the same value (keys in the same order);
- a timestamp text is taken as stored only when it is exactly what isoformat writes of it;
- a row changed in any way that changes its value breaks the game's plain decoding (the detailed decoder takes it).
"""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta, timezone
from uuid import UUID

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.audit import _encode, event_hash
from domain.autoplay import game_rng, random_game
from domain.games import DECIDERS, SPECS
from service.play.referee import Referee
from service.verification.decoded import NotPlain
from service.verification.plain_rows import _ISO_UTC, _float_free, decode_game
from service.play.new_games import ImportRecord

GAMES = sorted(DECIDERS)


def _options(game: str) -> tuple[dict, ...]:
    return SPECS[game].example_options


def _raw(app: Referee, gid) -> list:
    return [(r.originator_id, r.originator_version, r.topic, r.state) for r in app.recorder.select_events(gid)]


def _stored_games(game: str, count: int, seed: int) -> tuple[Referee, list]:
    """Random games of `game` stored through the service: some played to the end, some cut short, with table talk."""
    app = Referee("memory://")
    ids = []
    rng = random.Random(seed)
    for i in range(count):
        options = rng.choice(_options(game))
        n = rng.choice([k for k in range(2, 7) if _accepts(game, options, k)])
        players = [{"name": f"P{k} é☃"} for k in range(n)]
        doc = random_game(game, options, players, f"{seed:04x}{i:04x}", game_rng(seed, i),
                          max_moves=rng.choice([8, 60, 400]), chatter=0.1)
        ids.append(UUID(app.import_record(ImportRecord.from_body(doc))["id"]))
    return app, ids


def _accepts(game: str, options: dict, n: int) -> bool:
    try:
        DECIDERS[game].configure(options, [{"name": "x"}] * n, None, None)
        return True
    except Exception:
        return False


@pytest.mark.parametrize("game", GAMES)
def test_every_stored_game_is_plain_and_hashes_as_domain_audit_does(game):
    app, ids = _stored_games(game, 6, 11)
    for gid in ids:
        events = app.stored_events(gid)
        plain = decode_game(gid, _raw(app, gid))
        assert plain.hashes == [event_hash(e) for e in events]
        assert plain.created.__dict__ == events[0].__dict__
        assert [r.event.__dict__ for r in plain.rows] == [e.__dict__ for e in events]
        assert [r.fields["originator_version"] for r in plain.rows] == list(range(1, len(events) + 1))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**64 - 1) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(value=st.dictionaries(st.text(max_size=10), json_values, max_size=12))
def test_orjson_writes_domain_audit_s_canonical_json_for_every_value_without_a_float(value):
    assert orjson.dumps(value, option=orjson.OPT_SORT_KEYS) == _encode(value).encode("utf-8")


def test_a_float_anywhere_is_found():
    assert _float_free({"a": [1, {"b": "x", "c": [None, True]}]})
    for value in ({"a": 1.0}, {"a": [1, 2.5]}, {"a": {"b": [{"c": 1e16}]}}, [0.0]):
        assert not _float_free(value)


def _same(a, b) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


_PIECES = [bytes([i]) for i in range(256)] + [b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'\\u0000', b'\\ud800',
                                              b'1e5', b'1.0', b'99999999999999999999', b'\xef\xbb\xbf', b'"a":1,',
                                              b'\xc3\xa9', b'\xed\xa0\x80', b' ', b'true', b'null']


def test_a_row_orjson_decodes_without_a_float_is_one_json_decodes_to_the_same_value():
    app, ids = _stored_games("el-royale", 2, 3)
    rows = [r[3] for gid in ids for r in _raw(app, gid)]
    rng = random.Random(7)
    taken = 0
    for _ in range(30_000):
        text = bytearray(rng.choice(rows))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            roll = rng.random()
            if roll < 0.4:
                text[at:at] = rng.choice(_PIECES)
            elif at < len(text):
                text[at:at + 1] = b"" if roll < 0.7 else rng.choice(_PIECES)
        try:
            fast = orjson.loads(bytes(text))
        except orjson.JSONDecodeError:
            continue
        if not _float_free(fast):
            continue
        taken += 1
        assert _same(fast, json.loads(bytes(text).decode("utf-8")))
    assert taken > 1000


@settings(max_examples=500, deadline=None)
@given(when=st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31), timezones=st.just(timezone.utc)))
def test_isoformat_s_own_text_is_taken(when):
    text = when.isoformat()
    assert _ISO_UTC(text) is not None
    assert datetime.fromisoformat(text).isoformat() == text


@settings(max_examples=2000, deadline=None)
@given(text=st.from_regex(re.compile(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{6})?\+00:00\Z")))
def test_a_text_taken_as_stored_is_what_isoformat_writes_of_it(text):
    if _ISO_UTC(text) is None:
        assert ".000000" in text
        return
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return  # no time: the row is not plain (decode_game lets fromisoformat raise)
    assert when.isoformat() == text


@pytest.mark.parametrize("text", ["2026-11-23T13:44:36.000000+00:00", "2026-11-23 13:44:36.546190+00:00",
                                  "2026-11-23T13:44:36,546190+00:00", "20261123T134436.546190+00:00",
                                  "2026-11-23T13:44:36.546190-00:00", "2026-11-23T13:44:36.546190Z",
                                  "2026-11-23T13:44:36.5+00:00", "2026-11-23T13:44:36.546190+01:00",
                                  "٢٠٢٦-11-23T13:44:36.546190+00:00"])
def test_a_timestamp_isoformat_would_write_otherwise_is_not_taken(text):
    assert _ISO_UTC(text) is None


def _edits(state: bytes) -> list[bytes]:
    """Changes of a stored row that change its value (each must take the game off the plain road)."""
    doc = json.loads(state)
    out = []
    for key, value in doc.items():
        if key == "timestamp":
            when = datetime.fromisoformat(value["_data_"]) + timedelta(microseconds=1)
            out.append(json.dumps({**doc, key: {**value, "_data_": when.isoformat()}}).encode())
        elif isinstance(value, str):
            out.append(json.dumps({**doc, key: value + "x"}).encode())
        elif isinstance(value, bool):
            out.append(json.dumps({**doc, key: not value}).encode())
        elif isinstance(value, int):
            out.append(json.dumps({**doc, key: value + 1}).encode())
            out.append(json.dumps({**doc, key: float(value)}).encode())
        elif isinstance(value, dict) and value:
            inner = next(iter(value))
            out.append(json.dumps({**doc, key: {**value, inner: [value[inner]]}}).encode())
    out.append(json.dumps({**doc, "extra": 1}).encode())
    out.append(state[:-1])
    return out


def _store_of(rows: list) -> Referee:
    """A store holding exactly `rows` (a game's rows, edited or not)."""
    from eventsourcing.persistence import StoredEvent

    app = Referee("memory://")
    app.recorder.insert_events([StoredEvent(*row) for row in rows])
    return app


@pytest.mark.parametrize("game", GAMES)
def test_a_row_changed_in_any_field_is_reported_as_the_detailed_road_reports_it(game):
    """Every edit of a row either takes the game off the plain decoder or leaves the report the detailed decoder
    gives (an edit of the last row that neither the chain nor the engine sees: only a kept head shows it)."""
    from service.verification.bulk import GameRows
    from service.verification.driver import plain_report as fast_report
    from service.verification.driver import verify_game

    app, ids = _stored_games(game, 2, 5)
    rng = random.Random(game)
    seen = {"fast": 0, "detailed": 0}
    for gid in ids:
        raw = _raw(app, gid)
        assert fast_report(_store_of(raw), gid, GameRows(gid, raw, [], []), True, False) == \
            verify_game(_store_of(raw), gid, replay=True)
        for at in sorted({0, 1, len(raw) // 2, len(raw) - 1}):
            for edited in _edits(raw[at][3]):
                rows = list(raw)
                rows[at] = (*raw[at][:3], edited)
                store = _store_of(rows)
                fast = fast_report(store, gid, GameRows(gid, rows, [], []), True, False)
                seen["fast" if fast is not None else "detailed"] += 1
                if fast is not None:
                    assert at == len(raw) - 1, edited  # only the last row has no successor to break the chain
                    assert fast == verify_game(store, gid, replay=True), edited
                    assert fast["chain"]["head"] != event_hash(app.stored_events(gid)[-1])
        k = rng.randrange(1, len(raw) - 1)
        swapped = list(raw)
        swapped[k], swapped[k + 1] = (*raw[k][:3], raw[k + 1][3]), (*raw[k + 1][:3], raw[k][3])
        with pytest.raises(NotPlain):
            decode_game(gid, swapped)
        with pytest.raises(NotPlain):
            decode_game(gid, raw[:k] + raw[k + 1:])  # a row deleted: its successor's version is out of place
    assert seen["detailed"] > 10 * seen["fast"]


def test_a_float_in_a_row_keeps_the_game_off_the_plain_road_even_with_the_chain_rewritten_around_it():
    """orjson writes 1e-05 as 0.00001, json as 1e-05: a chain rewritten with orjson's hashes around a float would hold
    on the plain road and break on the detailed one. A float is never plain, so both roads report the same break."""
    from service.verification.bulk import GameRows
    from service.verification.driver import plain_report as fast_report
    from service.verification.driver import verify_game

    app, (gid,) = _stored_games("el-royale", 1, 9)
    raw = _raw(app, gid)
    doc = json.loads(raw[0][3])
    doc["time_control"] = {"move_seconds": 60, "grace": 1e-05}
    rows = [(*raw[0][:3], json.dumps(doc).encode())]
    head = None
    for row in [rows[0]] + raw[1:]:  # each prev rewritten to the orjson hash of the row before it
        fields = json.loads(row[3])
        if head is not None:
            fields["prev"] = head
            row = (*row[:3], json.dumps(fields).encode())
            rows.append(row)
        hashed = {**fields, "timestamp": fields["timestamp"]["_data_"], "originator_id": str(gid),
                  "originator_version": row[1], "class": row[2].rsplit(":", 1)[1]}
        hashed.pop("seed", None) if hashed["class"] == "Game.Created" else None
        head = __import__("hashlib").sha256(orjson.dumps(hashed, option=orjson.OPT_SORT_KEYS)).hexdigest()
    store = _store_of(rows)
    detailed = verify_game(store, gid, replay=True)
    assert detailed["chain"]["ok"] is False and detailed["chain"]["broken_at"] == 2
    assert fast_report(store, gid, GameRows(gid, rows, [], []), True, False) is None
