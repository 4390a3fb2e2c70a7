"""No HTTP answer shows a Batallion seat or spectator a card it may not see (BA-4.6, contract §3).

Random Batallion games of every variant are played over HTTP. After each request the referee's
record is replayed offline (domain.records) to learn where every card is, and the test keeps what
each caller may have seen: its own hand (each seat) and every card that lay face up (the discard
pile, the attack on the table). Every text a seat or a spectator receives (view, event log) is
scanned for card strings, jokers included; each must be one its caller may see. A pack holds every
card two or three times, so a card string counts as seen once any copy was.

An over-bid (BA-3.2) is refused privately: the other seats' and the spectator's answers are the
same before and after it, byte for byte.
"""

from __future__ import annotations

import json
import random
import re

import pytest
import hypothesis.strategies as st
from hypothesis import HealthCheck, Phase, given, settings

from api import create_app
from domain.games import DECIDERS
from domain.records import parse, replay

from .api_support import API, CheckedClient, bearer, players

pytestmark = pytest.mark.skipif("batallion" not in DECIDERS, reason="Batallion is not registered")

CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS]|JK)\b")
TABLES = [
    (3, {"variants": []}), (4, {"variants": ["jokers"]}), (4, {"variants": ["blind", "guts"]}),
    (4, {"variants": ["scarcity", "jokers"]}), (5, {"variants": ["five_six"]}), (6, {"variants": ["five_six", "jokers"], "chips": 20}),
]


class Table:
    def __init__(self, client, n: int, options: dict, seed: str):
        self.client, self.n = client, n
        body = {"game": "batallion", "options": options, "players": players(n), "seed": seed}
        created = client.post(f"{API}/games", json=body)
        assert created.status_code == 201, created.get_data(as_text=True)
        doc = created.get_json()
        self.url = f"{API}/games/{doc['id']}"
        self.seats = [bearer(s["token"]) for s in doc["seats"]]
        self.referee = bearer(doc["referee_token"])
        self.public: set[str] = set()
        self.seen: dict[int, set[str]] = {s: set() for s in range(n)}
        self.checked = 0

    def state(self):
        """The referee's record, replayed: the decider and its state now."""
        record = parse(self.client.get(f"{self.url}/record", headers=self.referee).get_json())
        return record.decider, replay(record).state

    def learn(self, decider, state) -> bool:
        final = decider.final(state)
        self.public |= set(final["discard"])
        if final["battle"]:
            self.public |= set(final["battle"]["cards"])
        for seat, hand in final["hands"].items():
            self.seen[int(seat)] |= set(hand)
        return decider.outcome(state).is_over

    def answers(self, caller) -> str:
        headers = self.seats[caller] if caller is not None else {}
        view = self.client.get(f"{self.url}/view" if caller is not None else self.url, headers=headers)
        log = self.client.get(f"{self.url}/events", headers=headers)
        assert view.status_code == 200 and log.status_code == 200
        return json.dumps(view.get_json()) + json.dumps(log.get_json())

    def check(self) -> None:
        for caller in [*range(self.n), None]:
            allowed = self.public | (self.seen[caller] if caller is not None else set())
            leaked = set(CARD.findall(self.answers(caller))) - allowed
            assert not leaked, f"{'seat ' + str(caller) if caller is not None else 'the spectator'} was shown {sorted(leaked)}"
            self.checked += 1

    def play(self, decider, state, rng: random.Random) -> None:
        moves = list(decider.legal_moves(state))
        move = rng.choice(moves)
        bids = [m for m in moves if m["type"] == "bid"]
        if bids and rng.random() < 0.5:  # try an over-bid first: it must leave no trace for the others
            seat = bids[0]["seat"]
            too_much = max(m["amount"] for m in bids) + 1
            self.over_bid(seat, too_much)
        body = {k: v for k, v in decider.format_move(move).items() if k != "seat"}
        answer = self.client.post(f"{self.url}/moves", json=body, headers=self.seats[move["seat"]])
        assert answer.status_code == 200, answer.get_data(as_text=True)

    def over_bid(self, seat: int, amount: int) -> None:
        others = [c for c in [*range(self.n), None] if c != seat]
        before = {c: self.answers(c) for c in others}
        refused = self.client.post(f"{self.url}/moves", json={"type": "bid", "amount": amount}, headers=self.seats[seat])
        assert refused.status_code == 422 and refused.get_json()["rule"] == "BA-3.2", refused.get_data(as_text=True)
        assert not set(CARD.findall(refused.get_data(as_text=True))) - self.seen[seat]
        for c in others:
            assert self.answers(c) == before[c], f"{c}'s answers changed after seat {seat}'s refused over-bid"


@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(table=st.sampled_from(TABLES), seed=st.binary(min_size=4, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False),
       steps=st.integers(30, 90))
def test_no_batallion_seat_or_spectator_is_shown_a_card_it_may_not_see(table, seed, rng, steps):
    n, options = table
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    game = Table(app.test_client(), n, options, seed)
    for _ in range(steps):
        decider, state = game.state()
        if game.learn(decider, state):
            break
        game.check()
        game.play(decider, state, rng)
    assert game.checked > 0


def test_the_batallion_leak_check_sees_another_seats_hand():
    """The scanner itself: seat 1's view, read as seat 0's, shows cards seat 0 may not see."""
    app = create_app({"DATABASE_URL": "memory://"})
    game = Table(app.test_client(), 4, {"variants": []}, "0badc0de")
    game.learn(*game.state())
    seat1 = json.dumps(game.client.get(f"{game.url}/view", headers=game.seats[1]).get_json())
    assert set(CARD.findall(seat1)) - (game.public | game.seen[0]), "seat 1's hand passed as something seat 0 may see"
