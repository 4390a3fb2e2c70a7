"""A study's sandbox (issue 27 part 3, docs/studies.md): its start is sampled from the seat's knowledge and the
study's seed alone, so cards the seat had not seen leave it identical; every move goes through the decider; the bots
answer for the other seats; comments are short plain text."""

from __future__ import annotations

import json
import random

import pytest

from domain.games import spec_for
from projections.knowledge import seat_knowledge
from service.errors import BadInput
from service.studies.facade import MAX_COMMENT, clean_comment
from service.studies.sandbox import BadVariationMove, bots_answer, knowledge_at, open_sandbox, replay
from tests.unit.test_analysis_hidden import CASES, _altered, _cut, _game


def _start(record, seat, seed="s"):
    return open_sandbox(record.game, record.setup, seat, knowledge_at(record, seat), seed)


def _fingerprint(sandbox, seat):
    d = sandbox.decider
    return json.dumps({"view": sandbox.view(seat), "state": d.dump_state(sandbox.state)}, sort_keys=True)


@pytest.mark.parametrize("game,players,options", CASES, ids=[f"{g}-{json.dumps(o)}" for g, _, o in CASES])
def test_cards_the_seat_had_not_seen_leave_the_study_start_identical(game, players, options):
    record = _game(game, players, options)
    rng = random.Random(31)
    seat = 1
    _, decisions = seat_knowledge(record, seat)
    checked = 0
    for k in rng.sample(range(len(decisions)), len(decisions)):
        upto = decisions[k].move_index  # the position where the seat was to decide
        altered = _altered(record, seat, upto, rng)
        if altered is None:
            continue
        original = _cut(record, upto)
        a, b = _start(original, seat), _start(altered, seat)
        assert _fingerprint(a, seat) == _fingerprint(b, seat)
        # and the bots' answers in the sandbox do not depend on them either
        assert bots_answer(_start(original, seat), 0) == bots_answer(_start(altered, seat), 0)
        checked += 1
        if checked == 2:
            break
    assert checked >= 1, "no position with a hidden card to alter was found"


def test_another_seed_samples_another_start_and_the_same_seed_the_same():
    record = _cut(_game("el-royale", 4, {"edition": "revised"}), 12)
    d = spec_for("el-royale").decider
    same = {json.dumps(d.dump_state(_start(record, 0, "a").state), sort_keys=True) for _ in range(2)}
    assert len(same) == 1
    others = {json.dumps(d.dump_state(_start(record, 0, s).state), sort_keys=True) for s in "bcdef"}
    assert others - same, "five other seeds all sampled the same hidden cards"


def test_an_illegal_variation_move_is_refused_with_its_rule_and_changes_nothing():
    record = _cut(_game("el-royale", 4, {"edition": "revised"}), 12)
    sandbox = _start(record, 0)
    bots_answer(sandbox, 0)
    before = json.dumps(sandbox.decider.dump_state(sandbox.state), sort_keys=True)
    legal = [m for m in sandbox.decider.legal_moves(sandbox.state) if m["seat"] == 0]
    illegal_type = next(t for t in ("pass", "concede", "attack", "claim") if not any(m["type"] == t for m in legal))
    with pytest.raises(BadVariationMove) as refused:
        sandbox.play({"seat": 0, "type": illegal_type, **({"cards": ["2C"]} if illegal_type == "attack" else {})})
    assert refused.value.reason
    with pytest.raises(BadVariationMove, match="unknown move type"):
        sandbox.play({"seat": 0, "type": "teleport"})
    assert json.dumps(sandbox.decider.dump_state(sandbox.state), sort_keys=True) == before


def test_the_bots_play_until_the_study_seat_is_to_act_and_a_replay_reaches_the_same_state():
    record = _cut(_game("el-royale", 4, {"edition": "revised"}), 12)
    sandbox = _start(record, 2)
    moves = [{"move": m, "by": "bot"} for m in bots_answer(sandbox, 0)]
    assert sandbox.over() or 2 in sandbox.to_act()
    d = sandbox.decider
    first = next(m for m in d.legal_moves(sandbox.state) if m["seat"] == 2)
    moves.append({"move": sandbox.play(d.format_move(first)), "by": "user"})
    moves += [{"move": m, "by": "bot"} for m in bots_answer(sandbox, len(moves))]
    again = replay(_start(record, 2), moves)
    assert d.dump_state(again.state) == d.dump_state(sandbox.state)


def test_a_comment_is_plain_text_of_one_to_500_characters():
    assert clean_comment("  a" * 1 + "  ") == "a"
    assert clean_comment("x" * MAX_COMMENT) == "x" * MAX_COMMENT
    assert clean_comment("<b>line</b>\nnext") == "<b>line</b>\nnext"  # kept as text; pages escape it
    for bad, why in (("x" * (MAX_COMMENT + 1), "at most 500"), ("   ", "empty"), ("a\x00b", "plain text"),
                     ("a\u202eb", "plain text"), (5, "string")):
        with pytest.raises(BadInput, match=why):
            clean_comment(bad)
