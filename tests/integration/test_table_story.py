"""The table tells the story: its log of recent actions ("What happened"), the news of a ruling for every seat and the
outcome for the seat that disputed, refusals numbered per seat, and never a card the viewer may not see.

The pages are read through Flask's test client (the table's live part, /games/<id>/panel, as each viewer)."""

from __future__ import annotations

import random
import re

import pytest

from api import create_app
from domain.games import DECIDERS

from .api_support import CheckedClient
from .test_replay_page_leaks import LABEL, LABELS, cards_in_view, play_randomly, start
from service.play.commands import FileDispute, GiveRuling, PlayMove
from service.play.new_games import CreateGame

LINE = re.compile(r'<li class="story-line ([^"]*)" data-version="(\d+)">(.*?)</li>', re.S)
RAW_CARD = re.compile(r"\b(?:[A2-9TJQK][CDHS])\b")
TAG = re.compile(r"<[^>]+>")


def story_of(page: str) -> str:
    start_at = page.index('<section class="story panel"')
    return page[start_at:page.index("</section>", start_at)]


def panel(app, gid: str, token: str | None) -> str:
    client = app.test_client()
    if token:
        client.get(f"/join/{gid}/{token}")
    response = client.get(f"/games/{gid}/panel")
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("game", sorted(DECIDERS))
def test_a_viewers_story_never_shows_a_card_its_own_view_did_not_show_at_that_version(game, seed):
    """Random games (refused attempts, talk, disputes among the moves) stopped early, while most cards are hidden:
    every card a line of each seat's and the spectator's story draws or names was in that viewer's own view at the
    line's version or just before it (the move took it from where it was seen)."""
    app, facade = memory_app()
    rng = random.Random(f"story/{game}/{seed}")
    created = start(facade, game, rng)
    gid = created["id"]
    play_randomly(facade, created, rng, rng.randint(6, 40))
    viewers = [s["token"] for s in created["seats"]] + [None]
    lines_seen = cards_seen = 0
    for token in viewers:
        who = f"seat {viewers.index(token)}" if token else "the spectator"
        seen: dict[int, set[str]] = {}

        def seen_at(version: int) -> set[str]:
            if version not in seen:
                view = facade.views.replay(gid, token, version) if token else facade.views.public_replay(gid, version)
                seen[version] = cards_in_view(view)
            return seen[version]

        for classes, version, inner in LINE.findall(story_of(panel(app, gid, token))):
            version = int(version)
            shown = {LABELS[label] for label in LABEL.findall(inner) if label in LABELS}
            shown |= set(RAW_CARD.findall(TAG.sub(" ", inner)))  # a card named in plain text (a reason, a claim)
            allowed = seen_at(version) | (seen_at(version - 1) if version > 1 else set())
            assert shown <= allowed, f"{who} sees {sorted(shown - allowed)} in the story line at v{version} of {game}: {inner}"
            lines_seen += 1
            cards_seen += len(shown)
    assert lines_seen and cards_seen, "no story line showed any card: the check checked nothing"


def memory_app():
    """A new app on a memory store, whose test client checks every answer: (app, its facade)."""
    app = create_app({"DATABASE_URL": "memory://"})
    app.test_client_class = CheckedClient
    return app, app.extensions["arbiter"]


def batallion(facade) -> tuple[str, list[str], str]:
    created = facade.play.create_game(CreateGame.from_body({"game": "batallion", "options": {"variants": []}, "seed": "5a17",
                                  "players": [{"name": n} for n in ("North", "East", "South")]}))
    return created["id"], [s["token"] for s in created["seats"]], created["referee_token"]


def test_an_upheld_ruling_with_a_rewind_is_announced_at_every_table_with_its_note_and_told_in_the_story():
    app, facade = memory_app()
    gid, tokens, referee = batallion(facade)
    seat = facade.views.view(gid, referee)["table"]["to_act"]
    played = facade.play.move(tokens[seat], PlayMove.from_body(gid, {"type": "draw", "source": "stock"}))["version"]
    other = (seat + 1) % 3
    dispute = facade.play.file_dispute(tokens[other], FileDispute.from_body(gid, {"version": played, "claim": "the stock was not shuffled"}))
    facade.play.rule(referee, GiveRuling.from_body(gid, dispute["number"], {"decision": "upheld", "remedy": "rewind", "note": "misdeal, draw again"}))
    for token in [*tokens, None]:
        page = panel(app, gid, token)
        assert "draw again" in page and f"went back to version {played - 1}" in page, page[:3000]
        story = story_of(page)
        assert "type-dispute_ruled" in story and "type-rewound" in story
        assert "upheld" in story and "misdeal, draw again" in story
    assert 'class="news my-ruling"' in panel(app, gid, tokens[other]) and "Your dispute" in panel(app, gid, tokens[other])
    assert 'class="news ruling-news"' in panel(app, gid, tokens[seat])


def test_the_seat_whose_dispute_was_rejected_is_told_until_it_acts_again_and_a_seat_that_moved_is_told_no_more():
    app, facade = memory_app()
    gid, tokens, referee = batallion(facade)
    seat = facade.views.view(gid, referee)["table"]["to_act"]
    played = facade.play.move(tokens[seat], PlayMove.from_body(gid, {"type": "draw", "source": "stock"}))["version"]
    disputer = (seat + 2) % 3
    dispute = facade.play.file_dispute(tokens[disputer], FileDispute.from_body(gid, {"version": played, "claim": "out of turn"}))
    facade.play.rule(referee, GiveRuling.from_body(gid, dispute["number"], {"decision": "rejected", "remedy": "none", "note": "it was their turn"}))
    mine = panel(app, gid, tokens[disputer])
    assert re.search(r'class="news my-ruling"[^>]*>Your dispute 1 .*?<strong>rejected</strong>.*?it was their turn', mine, re.S), mine[:3000]
    assert 'class="news my-ruling"' not in panel(app, gid, tokens[seat])
    # a move by another seat: the news of the ruling is over for that seat, the disputer is still told
    view = facade.views.view(gid, tokens[seat])
    facade.play.move(tokens[seat], PlayMove.from_body(gid, {"type": "discard", "cards": [view["table"]["hand"][0]]}))
    assert 'id="rulings-news"' not in panel(app, gid, tokens[seat])
    assert 'class="news my-ruling"' in panel(app, gid, tokens[disputer])


def test_refusals_are_numbered_per_seat_on_the_table_and_told_in_place_to_that_seat_only():
    """Two seats each make one refused attempt: each reads "attempt 1" (the game-wide numbers are 1 and 2); a seat's
    story shows its own refusal and not the other's; the referee's shows both."""
    app, facade = memory_app()
    gid, tokens, referee = batallion(facade)
    to_act = facade.views.view(gid, referee)["table"]["to_act"]
    idle = [s for s in range(3) if s != to_act]
    for seat in idle:
        client = app.test_client()
        client.get(f"/join/{gid}/{tokens[seat]}")
        answer = client.post(f"/games/{gid}/act", data={"type": "pass"}, headers={"X-Arbiter-Partial": "1"})
        assert answer.status_code == 422
        error = re.search(r'<p class="error"[^>]*>(.*?)</p>', answer.get_data(as_text=True), re.S).group(1)
        assert "(attempt 1)" in error, error
    for seat in idle:
        story = story_of(panel(app, gid, tokens[seat]))
        assert story.count("type-move_rejected") == 1 and "attempt 1" in story
    assert story_of(panel(app, gid, tokens[to_act])).count("type-move_rejected") == 0
    assert story_of(panel(app, gid, None)).count("type-move_rejected") == 0
    assert story_of(panel(app, gid, referee)).count("type-move_rejected") == 2


def test_a_seat_disputes_its_refusal_by_its_own_number_and_the_disputes_page_numbers_refusals_per_seat():
    """Seat A's refusal is the game's attempt 1, seat B's attempt 2. B files on the disputes page against "attempt 1"
    (its own first, as its table numbered it): the dispute names the game's attempt 2. B reads "your attempt 1", the
    referee "<B>'s attempt 1", A (who may not see B's refusal) "an attempt"; B's attempt 2 does not exist."""
    app, facade = memory_app()
    gid, tokens, referee = batallion(facade)
    to_act = facade.views.view(gid, referee)["table"]["to_act"]
    a, b = [s for s in range(3) if s != to_act]
    names = [p["name"] for p in facade.views.view(gid, referee)["players"]]
    for seat in (a, b):
        status = app.test_client()
        status.get(f"/join/{gid}/{tokens[seat]}")
        assert status.post(f"/games/{gid}/act", data={"type": "pass"}).status_code == 422
    client = app.test_client()
    client.get(f"/join/{gid}/{tokens[b]}")
    missing = client.post(f"/games/{gid}/disputes", data={"attempt": "2", "claim": "mine"})
    assert missing.status_code == 422 and "no refused attempt numbered 2" in missing.get_data(as_text=True)
    filed = client.post(f"/games/{gid}/disputes", data={"attempt": "1", "claim": "I may pass"})
    assert filed.status_code == 303
    dispute = facade.views.view(gid, referee)["disputes"][0]
    assert dispute["attempt"] == 2 and dispute["seat"] == b
    assert "the refusal of your attempt 1" in client.get(f"/games/{gid}/disputes").get_data(as_text=True)
    other = app.test_client()
    other.get(f"/join/{gid}/{tokens[a]}")
    page = other.get(f"/games/{gid}/disputes").get_data(as_text=True)
    assert "the refusal of an attempt" in page and "attempt 1" not in page
    judge = app.test_client()
    judge.get(f"/join/{gid}/{referee}")
    assert f"the refusal of {names[b]}&#39;s attempt 1" in judge.get(f"/games/{gid}/disputes").get_data(as_text=True)


def test_a_ruling_the_page_refuses_is_shown_on_the_disputes_page_with_each_disputed_move_in_words():
    """The referee submits a ruling without a decision (the form asks for one): the disputes page comes back with the
    refusal, and still names the disputed move."""
    app, facade = memory_app()
    gid, tokens, referee = batallion(facade)
    seat = facade.views.view(gid, referee)["table"]["to_act"]
    played = facade.play.move(tokens[seat], PlayMove.from_body(gid, {"type": "draw", "source": "stock"}))["version"]
    facade.play.file_dispute(tokens[(seat + 1) % 3], FileDispute.from_body(gid, {"version": played, "claim": "too quick"}))
    judge = app.test_client()
    judge.get(f"/join/{gid}/{referee}")
    answer = judge.post(f"/games/{gid}/disputes/1/ruling", data={"decision": "", "remedy": "none", "note": ""})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422 and 'id="error"' in page
    assert re.search(r'class="disputed-move">[^<]*draws', page), page
