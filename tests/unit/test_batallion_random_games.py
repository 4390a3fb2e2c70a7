"""Batallion over random games of every variant and player count (hypothesis explores new games on every local run).

- cards are conserved across hands, stock, discard pile and the battle on the table;
- chips are conserved as BA-4.5 says: held plus out of play is what the table started with;
- the fold of the events equals the state `step` returned; a state survives dump/load;
- `legal_moves` is sound and complete against brute force through `decide` (the candidate moves
  are built from the hand alone, never from the engine's clause predicates).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

import domain.batallion as ba
from domain.autoplay import pick_move
from domain.randomness import Chance
from domain.rules import RuleViolation
from tests.conftest import examples

TABLES = [(3, []), (4, []), (4, ["jokers"]), (3, ["blind"]), (4, ["guts"]), (3, ["scarcity"]), (5, ["five_six"]),
          (6, ["five_six", "jokers", "blind"]), (4, ["jokers", "guts", "scarcity"]), (5, ["five_six", "scarcity"])]


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


def candidates(s) -> list[dict]:
    """Every move shape a seat could send now, from its hand alone (attacks of up to 4 cards)."""
    out = []
    for seat in range(s.n):
        hand = s.hands[seat]
        out += [{"seat": seat, "type": "draw", "source": src} for src in ("stock", "discard")]
        out += [{"seat": seat, "type": "discard", "cards": [card]} for card in set(hand)]
        out += [{"seat": seat, "type": "bid", "amount": a} for a in range(0, 30)] + [{"seat": seat, "type": "pass"}]
        subsets = {tuple(sorted(x)) for size in range(0, min(4, len(hand)) + 1) for x in combinations(hand, size)}
        for cards in subsets:
            out.append({"seat": seat, "type": "defend", "cards": list(cards)})
            for target in range(s.n):
                out.append({"seat": seat, "type": "attack", "cards": list(cards), "target": target})
    return out


def accepted(s, moves, chance) -> set:
    ok = set()
    for move in moves:
        try:
            ba.decide(s, move, chance)
        except RuleViolation:
            continue
        ok.add(key(move))
    return ok


def check_brute_force(s, chance) -> None:
    legal = {key(m) for m in ba.legal_moves(s)}
    # sound: every listed move is accepted; complete: every accepted candidate is listed
    assert accepted(s, [dict(k) | {"cards": list(dict(k)["cards"])} if "cards" in dict(k) else dict(k) for k in legal],
                    chance) == legal
    small = accepted(s, candidates(s), chance)
    assert small <= legal, f"decide accepts moves legal_moves misses: {sorted(small - legal)[:3]}"
    if s.phase != "battles":  # outside battles the candidates are every move there is
        assert small == legal


@settings(max_examples=examples(25), deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.binary(min_size=4, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False),
       chips=st.sampled_from([15, 20]))
def test_random_games_conserve_cards_and_chips_fold_to_the_live_state_and_list_exactly_the_legal_moves(table, seed, rng, chips):
    n, variants = table
    options = {"variants": variants, **({"chips": chips} if "five_six" in variants else {})}
    setup = ba.configure(options, [{"name": f"P{i}"} for i in range(n)], None, None)
    chance = Chance(seed)
    state = ba.initial_state(setup)
    for e in ba.start(setup, chance):
        state = ba.evolve(state, e)
    pack, start_chips = Counter(ba.pack(setup)), n * setup.chips
    brute_at = set(rng.sample(range(90), 8))  # games last 40 to 150 moves: acquisition, bidding and battles all met
    for i in range(1500):
        if ba.outcome(state).is_over:
            break
        assert every_card(state) == pack
        assert sum(state.chips) + state.chips_out == start_chips
        if i in brute_at:
            check_brute_force(state, chance)
        move = pick_move(list(ba.legal_moves(state)), rng)
        events, after = ba.step(state, move, chance)
        folded = state
        for e in events:
            assert ba.decode_event(ba.encode_event(e)) == e
            folded = ba.evolve(folded, e)
        assert folded == after
        assert ba.load_state(ba.dump_state(after)) == after
        state = after
    assert every_card(state) == pack and sum(state.chips) + state.chips_out == start_chips
    if ba.outcome(state).is_over:
        assert list(ba.legal_moves(state)) == []
