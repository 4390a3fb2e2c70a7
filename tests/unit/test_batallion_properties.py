"""Batallion over random games of every variant and player count, played by drawing random legal moves.

- cards are conserved across hands, stock, discard pile and the battle on the table;
- chips are conserved: held plus out of play is what the table started with;
- the fold of every event from `initial_state` equals the state `step` returned, and `step`
  never changes the state it was given; a state survives dump/load (through JSON);
- `legal_moves` is sound and complete against brute force: every move of the right shape,
  built from the hands alone (each draw source, each distinct discard, bids from 0 to an
  upper bound on any attack's value + 2 and the pass, every sub-multiset of the hand for an
  attack against every seat, jokers included, and for a defence), is run through `decide`;
  the moves it accepts are exactly the moves `legal_moves` lists (as multisets);
- every event survives encode/decode and every move format_move/parse_move;
- the views leak nothing: an event redacted for a seat or a spectator shows no card beyond what
  `disclosed` gives that viewer, and a seat's table holds its own hand only (contract §3);
- after the end any move, however wrong its fields, is refused with BA-5.1.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

import domain.batallion as ba
from domain.randomness import Chance
from domain.rules import RuleViolation
from tests.conftest import examples
from projections.batallion import table as table_view
from projections.batallion.events import redact
from projections.viewers import SPECTATOR, Viewer

JOKER = 52
TABLES = [  # every variant and every player count, alone and together
    (3, []), (4, []), (3, ["jokers"]), (4, ["blind"]), (3, ["guts"]), (4, ["scarcity"]), (5, ["five_six"]),
    (6, ["five_six"]), (5, ["five_six", "jokers", "blind"]), (6, ["five_six", "guts", "scarcity"]),
    (3, ["jokers", "blind", "guts", "scarcity"]), (4, ["jokers", "scarcity", "blind"]),
]


def key(move: dict) -> tuple:
    """A move as a comparable value: card order within a move never matters."""
    return tuple(sorted((k, tuple(sorted(v)) if k == "cards" else v) for k, v in move.items()))


def every_card(s) -> Counter:
    cards = Counter(s.stock) + Counter(s.discard)
    for hand in s.hands:
        cards += Counter(hand)
    if s.battle is not None:
        cards += Counter(s.battle[2])
    return cards


def sub_multisets(hand) -> list[list[int]]:
    """Every distinct sub-multiset of a hand (the empty one included), jokers like any card."""
    groups = sorted(Counter(hand).items())
    return [[card for (card, _), k in zip(groups, counts) for _ in range(k)]
            for counts in product(*(range(k + 1) for _, k in groups))]


def value_bound(hand) -> int:
    """More than any attack from this hand can be worth: every card in one group, plus a joker's best."""
    return len(hand) ** 2 + 2 * len(hand) + 1


def candidates(s, seat: int) -> list[dict]:
    """Every move of every shape a seat could send now, from its hand alone."""
    hand = s.hands[seat]
    out = [{"seat": seat, "type": "draw", "source": src} for src in ("stock", "discard")]
    out += [{"seat": seat, "type": "discard", "cards": [card]} for card in sorted(set(hand))]
    out += [{"seat": seat, "type": "bid", "amount": a} for a in range(0, value_bound(hand) + 3)]
    out.append({"seat": seat, "type": "pass"})
    for cards in sub_multisets(hand):
        out.append({"seat": seat, "type": "defend", "cards": cards})
        out += [{"seat": seat, "type": "attack", "cards": cards, "target": t} for t in range(s.n)]
    return out


def few(s, seat: int, rng: random.Random) -> list[dict]:
    """One move of each shape for a seat that is not to act."""
    hand = list(s.hands[seat])
    some = rng.sample(hand, min(len(hand), 2))
    return [{"seat": seat, "type": "draw", "source": "stock"}, {"seat": seat, "type": "discard", "cards": some[:1]},
            {"seat": seat, "type": "bid", "amount": 4}, {"seat": seat, "type": "pass"},
            {"seat": seat, "type": "attack", "cards": some, "target": (seat + 1) % s.n},
            {"seat": seat, "type": "defend", "cards": some[:1]}]


def accepted(s, moves, chance) -> set:
    ok = set()
    for move in moves:
        try:
            ba.decide(s, move, chance)
        except RuleViolation:
            continue
        ok.add(key(move))
    return ok


def check_brute_force(s, chance, rng: random.Random) -> None:
    listed = list(ba.legal_moves(s))
    legal = {key(m) for m in listed}
    assert len(legal) == len(listed), "legal_moves lists each move once"
    acting = ba.to_act(s)
    assert {m["seat"] for m in listed} <= set(acting)
    brute = set()
    for seat in range(s.n):
        if seat in acting:
            brute |= accepted(s, candidates(s, seat), chance)
        else:
            assert not accepted(s, few(s, seat, rng), chance), "a seat not to act may not move"
    assert brute == legal, (f"accepted but not listed: {sorted(brute - legal)[:3]}; "
                            f"listed but refused: {sorted(legal - brute)[:3]}")


def shown_cards(value) -> Counter:
    """Every card string anywhere in a redacted event's data."""
    out: Counter = Counter()
    if isinstance(value, str):
        try:
            out[ba.parse_card(value)] += 1
        except Exception:
            pass
    elif isinstance(value, dict):
        for v in value.values():
            out += shown_cards(v)
    elif isinstance(value, list):
        for v in value:
            out += shown_cards(v)
    return out


def check_no_leak(before, event: dict) -> None:
    """Each seat and a spectator see, in the stored event, only the cards `disclosed` shows them."""
    private, public = ba.disclosed(before, event)
    data = {k: v for k, v in ba.encode_event(event).items() if k != "type" and k != "text"}
    for viewer in [Viewer.of_seat(seat) for seat in range(before.n)] + [SPECTATOR]:
        seen = shown_cards(redact(event["type"], data, viewer, before.n))
        allowed = Counter(public) + Counter(private.get(viewer.seat, []) if viewer.role == "seat" else [])
        assert not seen - allowed, f"{viewer} sees {seen - allowed} in {event['type']}"


def check_tables(state) -> None:
    """Before the end, a seat's table shows its own hand only, a spectator's no hand and no stock."""
    for seat in range(state.n):
        view = table_view(state, Viewer.of_seat(seat))
        assert view["hand"] == [ba.format_card(x) for x in state.hands[seat]]
        assert "stock" not in view and all("hand" not in entry for entry in view["seats"])
        assert bool(view["legal_moves"]) == (seat in ba.to_act(state))
    view = table_view(state, SPECTATOR)
    assert "stock" not in view and "hand" not in view and all("hand" not in entry for entry in view["seats"])


def setup_for(table, chips):
    n, variants = table
    options = {"variants": list(variants), **({"chips": chips} if "five_six" in variants else {})}
    return ba.configure(options, [{"name": f"P{i}"} for i in range(n)], None, None)


@settings(max_examples=examples(24), deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.binary(min_size=4, max_size=8).map(bytes.hex),
       play=st.integers(0, 2**32 - 1), chips=st.sampled_from([15, 20]))
def test_random_games_keep_cards_and_chips_fold_to_the_live_state_and_list_exactly_the_legal_moves(table, seed, play, chips):
    rng = random.Random(play)  # the players' choices: uniform (hypothesis' own randoms lean to the first move listed)
    setup = setup_for(table, chips)
    chance = Chance(seed)
    start_events = ba.start(setup, chance)
    state = folded = ba.initial_state(setup)
    for e in start_events:
        check_no_leak(state, e)
        state = folded = ba.evolve(state, e)
    pack, start_chips = Counter(ba.pack(setup)), setup.n * setup.chips
    checked_phases: set = set()
    for _ in range(3000):
        if ba.outcome(state).is_over:
            break
        assert every_card(state) == pack
        assert sum(state.chips) + state.chips_out == start_chips
        assert ba.load_state(json.loads(json.dumps(ba.dump_state(state)))) == state
        phase = (state.phase, state.battle is not None)
        if phase not in checked_phases or rng.random() < 0.03:  # each phase once, then now and then
            checked_phases.add(phase)
            check_brute_force(state, chance, rng)
            check_tables(state)
        legal = list(ba.legal_moves(state))
        assert legal and ba.to_act(state)
        move = rng.choice(legal) if rng.random() < 0.9 else {"seat": rng.randrange(setup.n), "type": "say", "text": "hi"}
        assert ba.parse_move(json.loads(json.dumps(ba.format_move(move))), setup.n) == move
        snapshot = ba.dump_state(state)
        events, after = ba.step(state, move, chance)
        assert ba.dump_state(state) == snapshot, "step changed the state it was given"
        assert ba.move_of(events[0]) is not None and key(ba.move_of(events[0])) == key(move)
        for e in events:
            check_no_leak(folded, e)
            stored = json.loads(json.dumps(ba.encode_event(e)))
            assert ba.decode_event(stored) == e
            assert ba.clause_of(e).startswith("BA-") and isinstance(ba.chance_of(e), dict)
            folded = ba.evolve(folded, e)
        assert folded == after
        assert ba.decide(state, move, chance) == events
        state = after
    assert ba.outcome(state).is_over, "a game ends"
    assert every_card(state) == pack and sum(state.chips) + state.chips_out == start_chips
    assert list(ba.legal_moves(state)) == [] and ba.to_act(state) == ()
    o = ba.outcome(state)
    assert o.result == "win" and o.scores == state.chips and list(o.seats) == [
        seat for seat in range(setup.n) if state.chips[seat] == max(state.chips)]
    # after the end every move is refused with BA-5.1, whatever is wrong with its fields
    wrong = [{"type": "draw", "source": "discard"}, {"type": "discard", "cards": [JOKER, JOKER, 0]},
             {"type": "bid", "amount": -7}, {"type": "pass"}, {"type": "attack", "cards": [], "target": 0},
             {"type": "defend", "cards": [JOKER]}, {"type": "say", "text": "one more?"}]
    for raw in wrong:
        move = {"seat": rng.randrange(setup.n), **raw}
        try:
            ba.decide(state, move, chance)
        except RuleViolation as e:
            assert e.clause == "BA-5.1"
        else:
            raise AssertionError(f"a move after the end was accepted: {move}")
