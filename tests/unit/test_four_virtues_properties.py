"""Properties of random Four Virtues games (hypothesis): cards are conserved, every round's score is what an
independent count of its melds gives and equals the sum of its explained lines, and the fold equals the live state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import domain.four_virtues as fv
from domain.randomness import Chance
from projections.four_virtues import table
from projections.viewers import REFEREE, Viewer


def random_game(seed: str, rng: random.Random, target: int, moves: int = 600):
    """(states, events per move): melds and additions are played half the time they are possible."""
    setup = fv.configure({"target": target}, [{"name": "A"}, {"name": "B"}], None, None)
    chance = Chance(seed)
    state = fv.initial_state(setup)
    opening = fv.start(setup, chance)
    for e in opening:
        state = fv.evolve(state, e)
    states, events = [state], [opening]
    for _ in range(moves):
        if state.outcome is not None:
            break
        legal = list(fv.legal_moves(state))
        plays = [m for m in legal if m["type"] in ("meld", "add")]
        move = rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(legal)
        new, state = fv.step(state, move, chance)
        states.append(state)
        events.append(new)
    return states, events


def pips(card: int, lowered) -> int:
    """A number card's score, counted here without the engine: A=1 .. 10=10, the lowered card at its new rank."""
    if lowered and lowered["card"] == card:
        return lowered["rank"] + 1
    return card % 13 + 1


def independent_round_scores(events: list[dict]) -> list[list[int]]:
    """Each round's points per seat, from the melded/added events alone (FV-3.2, FV-3.3, FV-4.2)."""
    rounds, melds, points = [], [], [0, 0]
    for e in events:
        if e["type"] == "dealt":
            melds, points = [], [0, 0]
        elif e["type"] == "melded":
            diamonds = e["face"] is not None and e["face"] // 13 == 1
            melds.append((e["seat"], diamonds, e["lowered"]))
            points[e["seat"]] += sum(pips(c, e["lowered"]) for c in e["cards"]) * (2 if diamonds else 1)
        elif e["type"] == "added":
            owner, diamonds, lowered = melds[e["meld"]]
            double = 2 if diamonds and e["seat"] == owner else 1
            points[e["seat"]] += sum(pips(c, lowered) for c in e["cards"]) * double
        elif e["type"] == "round_ended":
            rounds.append(list(points))
    return rounds


def cards_on_the_table(state) -> list[int]:
    out = [c for hand in state.hands for c in hand] + list(state.stock) + list(state.discard)
    for meld in state.melds:
        out += list(meld.cards) + ([meld.face] if meld.face is not None else [])
    return out


@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=2, max_size=6).map(bytes.hex), play=st.integers(0, 2**32), target=st.sampled_from([100, 150]))
def test_cards_are_conserved_and_each_round_scores_its_explained_lines(seed, play, target):
    states, batches = random_game(seed, random.Random(play), target)
    for state in states[1:]:
        assert sorted(cards_on_the_table(state)) == list(range(52))
    events = [e for batch in batches for e in batch]
    ended = [e for e in events if e["type"] == "round_ended"]
    assert [e["points"] for e in ended] == independent_round_scores(events)
    for e in ended:
        for seat in range(2):
            assert sum(line["points"] for line in e["lines"] if line["seat"] == seat) == e["points"][seat]
        assert e["scores"] == [sum(r["points"][seat] for r in ended[:ended.index(e) + 1]) for seat in range(2)]
    for state in states[1:]:
        for meld in table(state, REFEREE)["melds"]:
            assert [sum(ln["points"] for ln in meld["lines"] if ln["seat"] == s) for s in range(2)] == meld["scores"]


@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=2, max_size=6).map(bytes.hex), play=st.integers(0, 2**32))
def test_the_fold_of_the_events_is_the_live_state_and_a_seat_sees_only_its_own_hand(seed, play):
    states, batches = random_game(seed, random.Random(play), 100, moves=300)
    state = fv.initial_state(states[0].setup)
    for i, batch in enumerate(batches):
        for e in batch:
            state = fv.evolve(state, e)
        assert state == states[i]
        if state.outcome is None:
            for seat in range(2):
                view = table(state, Viewer("seat", seat))
                other = set(fv.format_card(c) for c in state.hands[1 - seat]) | set(fv.format_card(c) for c in state.stock)
                shown = set(view["hand"]) | {c for m in view.get("legal_moves", []) for c in m.get("cards", [])}
                assert not shown & other and "stock" not in view and all("hand" not in s for s in view["seats"])
