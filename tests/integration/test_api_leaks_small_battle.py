"""No HTTP answer shows a Small Battle seat or spectator an unrevealed card of a formation it does not own (SB-1.3,
SB-2.3, SB-2.4); after the end the honesty check verifies every commitment and strike (SB-3.2)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from api import create_app

from .api_support import API, CheckedClient, bearer


def formation_cards(seat: int, formation: list[str]) -> list[str]:
    suit = "C" if seat == 0 else "S"
    return [f"{r}{suit}" for r in formation]


@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=4, max_size=8).map(bytes.hex), rng=st.randoms(use_true_random=False))
def test_no_seat_or_spectator_sees_an_unrevealed_card_of_another_formation(seed, rng: random.Random):
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    doc = client.post(f"{API}/games", json={"game": "small-battle", "options": {}, "seed": seed,
                                            "players": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    url, seats, referee = f"{API}/games/{doc['id']}", [bearer(s["token"]) for s in doc["seats"]], bearer(doc["referee_token"])
    formations = [rng.sample(list("23456789"), 8) for _ in range(2)]
    for seat in rng.sample([0, 1], 2):
        assert client.post(f"{url}/moves", json={"type": "arrange", "formation": formations[seat]}, headers=seats[seat]).status_code == 200
    for _ in range(200):
        view = client.get(f"{url}/view", headers=referee).get_json()
        if view["status"] == "finished":
            break
        revealed = {b["seat"]: {p["position"] for p in b["positions"] if p["revealed"]} for b in view["table"]["battlefields"]}
        for caller in (0, 1, None):
            headers = seats[caller] if caller is not None else {}
            text = json.dumps(client.get(f"{url}/view" if caller is not None else url, headers=headers).get_json()) + \
                json.dumps(client.get(f"{url}/events", headers=headers).get_json())
            for owner in (0, 1):
                if owner == caller:
                    continue
                hidden = [c for p, c in enumerate(formation_cards(owner, formations[owner])) if p not in revealed[owner]]
                leaked = [c for c in hidden if f'"{c}"' in text]
                assert not leaked, f"{caller} sees {leaked} of seat {owner}'s formation"
        striker = view["table"]["to_act"]
        moves = client.get(f"{url}/view", headers=seats[striker]).get_json()["table"]["legal_moves"]
        move = rng.choice(moves)
        assert client.post(f"{url}/moves", json=move, headers=seats[striker]).status_code == 200
    checks = client.get(f"{url}/audit/verify").get_json()
    if view["status"] == "finished":
        assert checks["evidence"]["ok"] is True and checks["evidence"]["commitments"] == 16
