"""Helpers for the HTTP API's integration tests: a test client that refuses tracebacks, games made over HTTP, tokens.

The API is exercised in process through Flask's test client (contract §3); every game here is El Royale.
Player names are compass points so that no name can look like a card string (see CARD).
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass

from flask.testing import FlaskClient

from tests.support import stacked_deck

API = "/api/v1"
PROBLEM = "application/problem+json"
CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS])\b")  # a card string (contract §1) inside any JSON text
BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{40,}={0,2}")  # a signature or key in base64 (cards_in leaves it out)
SOURCE_LINE = re.compile(r'\.py\\?", line \d+')  # a traceback's frame, raw or inside a JSON string
NAMES = ["North", "East", "South", "West", "Centre", "Zenith"]
TEAMS_NSEW = ["NS", "EW", "NS", "EW"]  # interleaved partners: North and South against East and West


class CheckedClient(FlaskClient):
    """A test client that fails the test on any response showing a Python traceback, and that takes a gzip'd answer
    as an HTTP client does (decoded, its Content-Encoding dropped): Werkzeug's test client leaves it compressed."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        if response.headers.get("Content-Encoding") == "gzip" and not response.is_streamed:
            import gzip

            response.set_data(gzip.decompress(response.get_data()))
            del response.headers["Content-Encoding"]
        if response.mimetype != "text/event-stream":  # an event stream is read (or closed) by its test
            text = response.get_data(as_text=True)
            assert "Traceback" not in text, f"a response shows a traceback: {text[:500]}"
            assert not SOURCE_LINE.search(text), f"a response shows a source line: {text[:500]}"
        return response


def bearer(token: str) -> dict:
    """The Authorization header of a token."""
    return {"Authorization": f"Bearer {token}"}


def players(n: int, teams: list[str] | None = None) -> list[dict]:
    """n seats named after compass points (never card-like), with teams when given."""
    if teams is None:
        return [{"name": NAMES[i]} for i in range(n)]
    return [{"name": NAMES[i], "team": teams[i]} for i in range(n)]


@dataclass
class Table:
    """A game created over HTTP: its id and every token."""

    id: str
    seat_tokens: list[str]
    referee_token: str
    created: dict

    @property
    def url(self) -> str:
        return f"{API}/games/{self.id}"

    def seat(self, n: int) -> dict:
        return bearer(self.seat_tokens[n])

    @property
    def referee(self) -> dict:
        return bearer(self.referee_token)

    @property
    def tokens(self) -> list[str]:
        """Every token of the game, and each token's secret part alone."""
        whole = [*self.seat_tokens, self.referee_token]
        return whole + [t.split(".", 1)[1] for t in whole]

    def forged_token(self) -> str:
        """A token of the right shape for this game (its id, a dot, a secret) that the game never issued."""
        return f"{self.id.replace('-', '')}.{secrets.token_urlsafe(24)}"


def create(client, n: int = 4, teams: list[str] | None = None, edition: str = "revised", **spec) -> Table:
    """Create an El Royale game over HTTP (201 expected) and return its tokens."""
    body = {"game": "el-royale", "options": {"edition": edition}, "players": players(n, teams), **spec}
    response = client.post(f"{API}/games", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    doc = response.get_json()
    assert [s["seat"] for s in doc["seats"]] == list(range(n))
    return Table(doc["id"], [s["token"] for s in doc["seats"]], doc["referee_token"], doc)


def create_stacked(client, hands: list[list[str]], teams: list[str] | None = None, edition: str = "revised",
                   dealer: int = 0, starter: int = 0, deck_top=(), seed: str = "00ff") -> Table:
    """A game whose deal is fixed (a "stacked" game, contract §2): `hands[seat]`, then `deck_top` off the deck."""
    deck = stacked_deck(hands, dealer, deck_top)
    return create(client, len(hands), teams, edition, seed=seed, deck=deck, dealer=dealer, starter=starter)


def referee_view(client, table: Table) -> dict:
    """The referee's view now (200 expected)."""
    response = client.get(f"{table.url}/view", headers=table.referee)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def to_act(client, table: Table) -> int:
    """The seat to act, read from the referee's view."""
    return referee_view(client, table)["table"]["to_act"]


def seat_view(client, table: Table, seat: int) -> dict:
    """A seat's own view now (200 expected)."""
    response = client.get(f"{table.url}/view", headers=table.seat(seat))
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def play(client, table: Table, move: dict, seat: int | None = None) -> dict:
    """POST a move for `seat` (default: the seat to act, from GET /view); 200 expected; returns the answer."""
    seat = to_act(client, table) if seat is None else seat
    response = client.post(f"{table.url}/moves", json=move, headers=table.seat(seat))
    assert response.status_code == 200, f"seat {seat} {move}: {response.get_data(as_text=True)}"
    return response.get_json()


def assert_problem(response, status: int) -> dict:
    """An RFC 9457 problem with that status: content type, type/title/status/detail; returns its body."""
    text = response.get_data(as_text=True)
    assert response.status_code == status, f"expected {status}, got {response.status_code}: {text[:400]}"
    assert response.mimetype == PROBLEM, f"{response.mimetype}: {text[:400]}"
    body = json.loads(text)
    for key in ("type", "title", "status", "detail"):
        assert key in body, f"problem without {key}: {body}"
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    return body


def cards_in(text: str) -> set[str]:
    """Every card string in a JSON text, outside long base64 runs: a signed note's signature (a receipt's or a
    refusal's promise, issue 39) is random base64, where "+QS/" would read as the card QS at random (a card string
    stands alone, never inside a run of 40 letters and digits)."""
    return set(CARD.findall(BASE64_RUN.sub(" ", text)))
