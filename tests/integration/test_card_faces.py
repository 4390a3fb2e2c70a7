"""The card component (templates/macros.html: card, card_back, pile) as the pages render it: every card of every
game drawn as a face with its spoken name, backs that name no card, piles whose depth follows their count, and the
tables' hidden hands drawn as piles that show nothing of the hand."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from api import create_app
from domain.games import DECIDERS, SPECS
from domain.rules import InvalidSetup

from .api_support import API, CheckedClient, create

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parsed(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def classes(attrs: dict) -> list[str]:
    return (attrs.get("class") or "").split()


@pytest.fixture(scope="module")
def app():
    app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1})
    app.test_client_class = CheckedClient
    return app


@pytest.fixture
def draw(app):
    """Render a template snippet that imports the card macros."""
    def render(snippet: str) -> str:
        with app.test_request_context("/"):
            return app.jinja_env.from_string('{% from "macros.html" import card, card_back, pile %}' + snippet).render()
    return render


def every_pack():
    """(game, card string) of every card any set-up of any game can deal (Batallion's jokers included)."""
    for game, decider in sorted(DECIDERS.items()):
        seen = set()
        for options in SPECS[game].example_options:
            for n in range(2, 7):
                try:
                    setup = decider.configure(options, [{"name": f"P{i}"} for i in range(n)], None, None)
                except InvalidSetup:
                    continue
                seen |= {decider.format_card(c) for c in decider.pack(setup)}
        assert seen, game
        yield game, sorted(seen)


@pytest.mark.parametrize("game,cards", list(every_pack()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_card_of_every_game_is_drawn_as_a_face_with_its_rank_its_suit_s_colour_and_its_spoken_name(draw, game, cards):
    for code in cards:
        html = draw(f"{{{{ card({code!r}) }}}}")
        tags = parsed(html)
        (tag, attrs), *inner = tags.tags
        assert "card" in classes(attrs) and attrs["role"] == "img" and attrs["data-card"] == code
        spans = {classes(a)[0]: a for _t, a in inner}
        assert spans.keys() == {"rank", "suit"}, (code, html)
        assert all(a.get("aria-hidden") == "true" for a in spans.values())
        rank, suit = tags.text[0], tags.text[1].rstrip("\ufe0e")
        if code == "JK":
            assert "joker" in classes(attrs) and attrs["aria-label"] == "joker" and suit == "★"
            continue
        colour = "red" if code[1] in "DH" else "black"
        assert colour in classes(attrs), code
        assert rank == ("10" if code[0] == "T" else code[0]) and suit == "♣♦♥♠"["CDHS".index(code[1])]
        assert attrs["aria-label"].endswith(f"of {SUIT_NAMES[code[1]]}")


def test_a_selectable_card_is_a_checkbox_named_by_the_card_with_the_same_face(draw):
    tags = parsed(draw("{{ card('QD', selectable=true) }}"))
    (label, la), (box, ba), *_ = tags.tags
    assert label == "label" and {"card", "red", "pick"} <= set(classes(la))
    assert box == "input" and ba["name"] == "cards" and ba["value"] == "QD" and ba["aria-label"] == "queen of diamonds"
    assert tags.text[:2] == ["Q", "♦\ufe0e"]


def test_a_face_down_card_shows_a_back_that_names_no_card_and_is_no_card(draw):
    (tag, attrs), = parsed(draw("{{ card_back() }}")).tags
    assert classes(attrs) == ["card-back"] and attrs["aria-label"] == "face-down card"
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b|of (clubs|diamonds|hearts|spades)", draw("{{ card_back() }}"))


@pytest.mark.parametrize("count,depth", [(0, 0), (1, 0), (2, 1), (4, 1), (5, 2), (12, 2), (13, 3), (26, 3), (27, 4), (104, 4)])
def test_a_pile_is_drawn_thicker_the_more_cards_it_holds_and_shows_its_count(draw, count, depth):
    html = draw(f"{{{{ pile({count}, label='deck', id='deck-count') }}}}")
    tags = parsed(html)
    (_t, outer), *_ = tags.tags
    assert f"depth-{depth}" in classes(outer) and outer["data-count"] == str(count)
    assert outer["aria-label"] == f"deck: {count} card{'' if count == 1 else 's'}"
    assert ("empty" in classes(outer)) == (count == 0)
    count_tag = next(a for _t, a in tags.tags if "pile-count" in classes(a))
    assert count_tag["id"] == "deck-count" and str(count) in tags.text
    assert not any("card" in classes(a) for _t, a in tags.tags), "a face-down pile shows no card"


def test_a_face_up_pile_shows_its_top_card_on_the_stack(draw):
    tags = parsed(draw("{{ pile(7, top='8H', label='battle pile') }}"))
    faces = [a for _t, a in tags.tags if "card" in classes(a)]
    assert [a["aria-label"] for a in faces] == ["8 of hearts"]
    assert "card-back" not in {c for _t, a in tags.tags for c in classes(a)}


def test_a_spectator_sees_each_hidden_hand_as_a_pile_of_its_size_and_no_card_of_it():
    app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1})
    app.test_client_class = CheckedClient
    client = app.test_client()
    table = create(client, 3)
    view = client.get(f"{API}/games/{table.id}/view", headers=table.referee).get_json()
    html = client.get(f"/games/{table.id}").get_data(as_text=True)
    seats = html[html.index('class="seats panel"'):]
    seats = seats[:seats.index("</section>")]
    stacks = [a for _t, a in parsed(seats).tags if "pile-stack" in classes(a)]
    assert [int(a["data-count"]) for a in stacks] == [s["hand_size"] for s in view["table"]["seats"]]
    assert "data-card" not in seats
    for seat in view["table"]["seats"]:
        for card in seat["hand"]:
            assert f'data-card="{card}"' not in html, f"the spectator's table shows {card} of a hand"
    deck = html[html.index('id="deck-count"'):]
    assert deck.startswith(f'id="deck-count">{view["table"]["deck_count"]}<')
