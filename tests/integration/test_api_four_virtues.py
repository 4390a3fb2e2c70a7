"""The Four Virtues over HTTP: a disputed round score is explained card by card in the referee's audit (FV-3.2,
FV-4.2) and the seat's view lists its legal melds."""

from __future__ import annotations

from api import create_app

from .api_support import API, CheckedClient, bearer

NORTH = "5H 6H 7H KD 8H AC 2C 3C 9S 9D"
SOUTH = "AD 2D 3D 4D 5D 6D 7D 8D TD JC"


def stacked_deck() -> list[str]:
    order = [c for pair in zip(NORTH.split(), SOUTH.split()) for c in pair] + ["KS", "9C"]
    return order + [r + s for s in "CDHS" for r in "A23456789TJQK" if r + s not in order]


def new_game(client):
    doc = client.post(f"{API}/games", json={"game": "four-virtues", "options": {"target": 100}, "seed": "f4",
                                            "players": [{"name": "North"}, {"name": "South"}],
                                            "deck": stacked_deck(), "dealer": 1}).get_json()
    client.referee_join = f"/join/{doc['id']}/{doc['referee_token']}"
    return f"{API}/games/{doc['id']}", [bearer(s["token"]) for s in doc["seats"]], bearer(doc["referee_token"])


def test_a_disputed_round_score_is_explained_card_by_card_in_the_audit():
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    url, seats, referee = new_game(client)
    north = seats[0]
    for move in ({"type": "draw", "source": "stock", "count": 1},
                 {"type": "meld", "cards": ["5H", "6H", "7H"], "face": "KD"},
                 {"type": "add", "meld": 0, "cards": ["8H"]},
                 {"type": "meld", "cards": ["AC", "2C", "3C"]}):
        assert client.post(f"{url}/moves", json=move, headers=north).status_code == 200
    ended = client.post(f"{url}/moves", json={"type": "meld", "cards": ["9S", "9D", "9C"]}, headers=north).get_json()
    kinds = [e["type"] for e in ended["events"]]
    assert kinds[-2:] == ["round_ended", "dealt"]
    at = ended["version"] - len(ended["events"]) + 1  # the version of the move's first event
    filed = client.post(f"{url}/disputes", json={"version": at, "claim": "North's 85 looks too high"},
                        headers=seats[1])
    assert filed.status_code in (200, 201)
    audit = client.get(f"{url}/audit", headers=referee).get_json()
    (line,) = [e["text"] for e in audit["entries"] if e["type"] == "round_ended"]
    assert line.startswith("round 1 ends (empty): points 85 / 0")
    for part in ("meld 0: 5H laid by North under diamonds: 10", "meld 0: 8H added by North under diamonds: 16",
                 "meld 1: AC laid by North: 1", "meld 2: 9C laid by North: 9"):
        assert part in line
    client.get(client.referee_join)  # the referee's link: its identity in this browser's session
    page = client.get(f"/games/{url.rsplit('/', 1)[1]}/audit")
    assert "8♥</span> added by North under diamonds: 16" in page.get_data(as_text=True)  # cards as a player reads them


def test_the_seat_view_lists_its_melds_with_hearts_and_spades_choices_folded_into_one_entry():
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    client = app.test_client()
    url, seats, _ = new_game(client)
    assert client.post(f"{url}/moves", json={"type": "draw", "source": "stock", "count": 1}, headers=seats[0]).status_code == 200
    moves = client.get(f"{url}/view", headers=seats[0]).get_json()["table"]["legal_moves"]
    melds = [m for m in moves if m["type"] == "meld"]
    assert {"type": "meld", "cards": ["9C", "9D", "9S"]} in melds
    assert {"type": "meld", "cards": ["5H", "6H", "7H"], "face": "KD"} in melds
    assert not any("force" in m or "draw" in m for m in melds)
