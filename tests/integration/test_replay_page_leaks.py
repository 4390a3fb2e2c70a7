"""The replay's move list never shows a viewer a card it may not see, for every game the engine referees.

Random games (random bots, refused attempts from seats out of turn, table talk, disputes), stopped after a random
number of steps (usually still running, when most cards are hidden). For every seat and a spectator, the move list
of the replay page (at a random version) and its script's copy of every line (/replay/moves.json: the lines, the
refusals shown above the board, the talk) are read entry by entry: each card an entry draws (by its spoken name, the
text form every drawn card keeps) must be one that viewer's own view showed at that entry's version or just
before it (`GET /replay?version=` as that viewer: the event moved the card, from where it was seen to where it is).
"""

from __future__ import annotations

import random
import re

import pytest

from api import create_app
from api.pages.filters import card_parts
from bots import SeatView, make_bot
from domain.games import DECIDERS, SPECS
from service.errors import ServiceError

from .api_support import NAMES, CheckedClient
from service.play.commands import FileDispute, PlayMove
from service.play.new_games import CreateGame

CARD_STRING = re.compile(r'"((?:[A2-9TJQK][CDHS])|JK)"')
LABEL = re.compile(r'(?:aria-label|title)="([^"]+)"')
ALL_CARDS = [r + s for s in "CDHS" for r in "A23456789TJQK"] + ["JK"]
LABELS = {card_parts(c)["label"]: c for c in ALL_CARDS}
ENTRY = re.compile(r'<li id="(v[^"]+)" class="([^"]*)" data-version="(\d+)"[^>]*>(.*?)</li>', re.S)


def cards_in_view(view: dict) -> set[str]:
    import json

    return set(CARD_STRING.findall(json.dumps(view)))


def start(facade, game: str, rng: random.Random) -> dict:
    """A new game of `game` with four players, else the first count it accepts and one of its example option sets."""
    options = rng.choice(SPECS[game].example_options)
    for n in (4, 3, 2, 5, 6):
        try:
            return facade.play.create_game(CreateGame.from_body({"game": game, "options": options, "seed": f"{rng.getrandbits(32):08x}",
                                       "players": [{"name": NAMES[i]} for i in range(n)]}))
        except ServiceError:
            continue
    raise AssertionError(f"no player count between 2 and 6 starts {game}")


def play_randomly(facade, created: dict, rng: random.Random, steps: int) -> None:
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    bots = [make_bot("random", created["game"] if "game" in created else facade.views.public(gid)["game"], s, rng)
            for s in range(len(tokens))]
    for _ in range(steps):
        views = [facade.views.view(gid, t) for t in tokens]
        if views[0]["status"] == "finished":
            return
        actors = [s for s, v in enumerate(views) if v["table"].get("legal_moves")]
        if not actors:
            return
        seat = rng.choice(actors)
        move = {k: v for k, v in bots[seat].choose(SeatView.from_http(views[seat])).items() if k != "seat"}
        roll = rng.random()
        try:
            if roll < 0.15:  # another seat tries the same move: refused (not its turn, not its cards) or malformed
                facade.play.move(tokens[rng.randrange(len(tokens))], PlayMove.from_body(gid, move))
                continue
            if roll < 0.2:
                facade.play.move(tokens[rng.randrange(len(tokens))], PlayMove.from_body(gid, {"type": "say", "text": "well played"}))
                continue
            if roll < 0.23:
                facade.play.file_dispute(tokens[rng.randrange(len(tokens))], FileDispute.from_body(gid, {"version": views[0]["version"], "claim": "check this"}))
                continue
        except ServiceError:
            continue
        facade.play.move(tokens[seat], PlayMove.from_body(gid, move))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", sorted(DECIDERS))
def test_the_move_list_shows_no_viewer_a_card_its_view_did_not_show_at_that_version(game, seed):
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    facade = app.extensions["arbiter"]
    rng = random.Random(f"{game}/{seed}")
    created = start(facade, game, rng)
    gid = created["id"]
    play_randomly(facade, created, rng, rng.randint(4, 40))
    latest = facade.views.public(gid)["version"]
    viewers = [s["token"] for s in created["seats"]] + [None]
    shown_in_all = 0
    for token in viewers:
        client = app.test_client()
        if token:
            client.get(f"/join/{gid}/{token}")
        page = client.get(f"/games/{gid}/replay?version={rng.randint(1, latest)}")
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        listed = text[text.index('<ol class="move-list"'):]
        entries = ENTRY.findall(listed[:listed.index("</ol>")])
        assert len(entries) >= latest - 1  # every version is listed (a refusal adds an entry)
        document = client.get(f"/games/{gid}/replay/moves.json").get_json()  # the script's copy: every line
        assert len(document["lines"]) == len(entries)
        entries += ENTRY.findall("".join(line[3] for line in document["lines"]))
        entries += [("refused above the board", "", version, inner) for version, inner in document["refused"].items()]
        entries += [("talk", "", version, inner) for version, inner in document["talk"]]
        seen: dict[int, set[str]] = {}

        def seen_at(version: int) -> set[str]:
            if version not in seen:
                view = facade.views.replay(gid, token, version) if token else facade.views.public_replay(gid, version)
                seen[version] = cards_in_view(view)
            return seen[version]

        for anchor, _, version, inner in entries:
            version = int(version)
            shown = {LABELS[label] for label in LABEL.findall(inner) if label in LABELS}
            allowed = seen_at(version) | (seen_at(version - 1) if version > 1 else set())
            assert shown <= allowed, (f"{'seat ' + str(viewers.index(token)) if token else 'spectator'} sees "
                                      f"{sorted(shown - allowed)} in the list's entry {anchor} of {game}")
            shown_in_all += len(shown)
    assert shown_in_all, "no entry showed any card: the check checked nothing"
