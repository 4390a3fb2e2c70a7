"""No HTTP answer shows a Four Virtues seat or spectator a card of the other hand or of the stock that has not been
shown to the table this round (FV-1.3, FV-2.2, FV-3.4, FV-3.5); after the end everything is disclosed and the
score of every round is explained line by line in the events."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from api import create_app

from .api_support import API, CARD, CheckedClient, bearer


def shown_this_round(events: list[dict]) -> set[str]:
    """Cards the whole table has seen since the round's deal: the up-card, discards, melds, additions, discard draws."""
    public: set[str] = set()
    for e in events:
        d = e["data"]
        if e["type"] == "dealt":
            public.add(d["order"][20])
        elif e["type"] in ("discarded", "forced_discarded", "melded", "added"):
            public |= set(d["cards"]) | ({d["face"]} if d.get("face") else set())
        elif e["type"] == "drew" and d["source"] == "discard":
            public |= set(d["cards"])
    return public


def a_move(view: dict, rng: random.Random) -> dict:
    """A random legal move from the seat's own view (a forced discard: any `count` cards of the hand)."""
    moves = view["table"]["legal_moves"]
    plays = [m for m in moves if m["type"] in ("meld", "add")]
    move = dict(rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(moves))
    if move["type"] == "forced_discard":
        return {"type": "forced_discard", "cards": rng.sample(view["table"]["hand"], move.pop("count"))}
    if "force_max" in move:
        move["force"] = rng.randint(0, move.pop("force_max"))
    if "draw_max" in move:
        move["draw"] = rng.randint(0, move.pop("draw_max"))
    return move


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=4, max_size=8).map(bytes.hex), play=st.integers(0, 2**32))
def test_no_seat_or_spectator_sees_a_card_of_the_other_hand_or_the_stock(seed, play):
    rng = random.Random(play)
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    doc = client.post(f"{API}/games", json={"game": "four-virtues", "options": {"target": 100}, "seed": seed,
                                            "players": [{"name": "North"}, {"name": "South"}]}).get_json()
    url, seats, referee = f"{API}/games/{doc['id']}", [bearer(s["token"]) for s in doc["seats"]], bearer(doc["referee_token"])
    view = None
    for _ in range(90):
        view = client.get(f"{url}/view", headers=referee).get_json()
        if view["status"] == "finished":
            break
        log = client.get(f"{url}/events", headers=referee).get_json()
        deal_at = max(e["version"] for e in log if e["type"] == "dealt") - 1
        public = shown_this_round([e for e in log if e["version"] > deal_at])
        table = view["table"]
        hands = [set(s["hand"]) for s in table["seats"]]
        for caller in (0, 1, None):
            headers = seats[caller] if caller is not None else {}
            text = json.dumps(client.get(f"{url}/view" if caller is not None else url, headers=headers).get_json()) + \
                json.dumps(client.get(f"{url}/events?after={deal_at}", headers=headers).get_json())
            hidden = set(table["stock"]) | set().union(*(hands[s] for s in (0, 1) if s != caller))
            leaked = (set(CARD.findall(text)) & hidden) - public
            assert not leaked, f"{'seat ' + str(caller) if caller is not None else 'a spectator'} sees {sorted(leaked)}"
        actor = table["to_act"]
        mine = client.get(f"{url}/view", headers=seats[actor]).get_json()
        response = client.post(f"{url}/moves", json=a_move(mine, rng), headers=seats[actor])
        assert response.status_code == 200, response.get_json()
    events = client.get(f"{url}/events", headers=referee).get_json()
    for ended in (e["data"] for e in events if e["type"] == "round_ended"):
        assert [sum(ln["points"] for ln in ended["lines"] if ln["seat"] == s) for s in (0, 1)] == ended["points"]
