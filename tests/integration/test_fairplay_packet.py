"""The fair-play review packet from a tournament's store (docs/fairplay.md "Review packet"): the director downloads it
from the fair-play page, blind unless asked for names; nobody else may; its seat-view links open the position as
that seat saw it, without another seat's hidden card; `arbiter fairplay --tournament ID --packet FILE` writes the
same kind of file."""

from __future__ import annotations

import re
from uuid import UUID

from click.testing import CliRunner

from api.cli.group import group
from projections.views import view
from projections.viewers import REFEREE, Viewer
from service.tournaments.commands import CreateTournament
from tests.integration.test_desk_fairplay import report_done
from tests import tournament_support

NAMES = ["Annabel", "Bartholomew"]


def played_tournament(app) -> dict:
    return tournament_support.played_tournament(app, "Spring open", NAMES)


def test_the_director_downloads_a_blind_packet_and_nobody_else_any(app, client):
    from dataclasses import replace

    jobs = app.extensions["arbiter"].fairplay
    jobs.settings = replace(jobs.settings, own_samples=2, perfect_samples=1, worlds=2, refer=1.0)  # both referred
    for _ in range(4):  # a one-game event whose full test found no decision above one half (about 1 in 25: the
        # packet says so, "No decision ranked above one half.") has nothing to link: play another event
        created = played_tournament(app)
        tid, token = created["id"], created["director_token"]
        url = f"/tournaments/{tid}/fairplay"
        assert client.get(url + "/packet").status_code == 401  # a spectator
        client.get(f"/tournaments/{tid}/director/{token}")
        assert client.get(url + "/packet").status_code == 409  # no report asked for yet: the page asks for it
        client.get(url)
        report_done(client, url)
        blind = client.get(url + "/packet")
        if 'class="decision"' in blind.get_data(as_text=True):
            break
    page = client.get(url).get_data(as_text=True)
    assert 'id="fairplay-packet"' in page and 'id="fairplay-packet-names"' in page
    assert blind.status_code == 200 and blind.headers["Cache-Control"] == "no-store"
    assert blind.headers["Content-Disposition"].startswith("attachment;") and "blind" in blind.headers["Content-Disposition"]
    text = blind.get_data(as_text=True)
    assert 'id="packet-blind"' in text and "<script" not in text
    # both referred: each a row of the statistics and a section of decisions under its label, never its name
    assert sorted(re.findall(r"<td>(Player [A-Z]+)</td>", text)) == ["Player A", "Player B"]
    assert re.findall(r'<h3 id="referred-\d+">(Player [A-Z]+)</h3>', text) == ["Player A", "Player B"]
    assert not any(name in text for name in NAMES)
    assert "never a verdict" in text and 'id="packet-statistics"' in text
    said = " ".join(text.split())
    assert "Stage one, the screen" in said and "Stage two, the full test" in said and "1 in 1,000,000" in said
    assert "The screen: its glance: whether the strike removed a card (SB-2.2), in each of" in said
    decisions = said.count('class="decision"')
    assert decisions > 0 and said.count('class="seat-view-link"') == decisions  # every weighty decision, linked
    named = client.get(url + "/packet?names=1").get_data(as_text=True)
    assert all(name in named for name in NAMES) and 'id="packet-named"' in named and "not blind" in named
    other = app.extensions["arbiter"].tournaments.create(CreateTournament.from_body(
        {"name": "Other", "game": "small-battle", "players": ["C", "D"], "format": "round-robin"}))
    client.set_cookie("arbiter_td_" + tid.replace("-", ""), other["director_token"], path="/tournaments/")
    assert client.get(url + "/packet").status_code == 403


def seat_view_links(text: str) -> list[tuple[str, int, int]]:
    return [(g, int(s), int(v)) for g, s, v in re.findall(r"/fairplay/seat-view/([0-9a-f-]+)/(\d+)/(\d+)", text)]


def test_a_seat_view_shows_that_seat_s_table_and_never_another_seat_s_hidden_card(app, client):
    created = played_tournament(app)
    tid, token = created["id"], created["director_token"]
    game_id = app.extensions["arbiter"].tournaments.seatings(tid)["games"][0]["game_id"]
    store = app.extensions["arbiter"].tournaments.app
    game = store.game(UUID(game_id))
    path = f"/tournaments/{tid}/fairplay/seat-view/{game_id}/0/{game.move_versions[3] - 1}"
    assert client.get(path).status_code == 401
    client.get(f"/tournaments/{tid}/director/{token}")
    for seat in (0, 1):
        for version in (game.move_versions[3] - 1, game.version):
            page = client.get(f"/tournaments/{tid}/fairplay/seat-view/{game_id}/{seat}/{version}")
            assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
            text = page.get_data(as_text=True)
            at = store.game(game.id, version)
            shown = view(at, Viewer.of_seat(seat), withheld=True)["table"]
            full = view(at, REFEREE, disclose_all=True)["table"]
            hidden = cards_in(full) - cards_in(shown)
            assert hidden, "the other seat hides nothing here: the test would show nothing"
            assert not [c for c in hidden if re.search(rf"(?<![%\w]){c}\b", text)], (seat, version)  # not %3D
            assert not any(name in text for name in NAMES)
    assert client.get(f"/tournaments/{tid}/fairplay/seat-view/{game_id}/7/2").status_code == 404
    assert client.get(f"/tournaments/{tid}/fairplay/seat-view/{game_id}/0/99999").status_code == 404


CARD = re.compile(r"^(10|[2-9TJQKA])[SHDC]$")


def cards_in(doc) -> set[str]:
    if isinstance(doc, str):
        return {doc} if CARD.match(doc) else set()
    if isinstance(doc, dict):
        return set().union(*(cards_in(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(cards_in(v) for v in doc)) if doc else set()
    return set()


def test_the_cli_writes_the_packet_of_a_tournament_s_store(tmp_path):
    from api import create_app

    url = f"sqlite:///{tmp_path / 'store.db'}"
    app = create_app({"DATABASE_URL": url})
    created = played_tournament(app)
    app.extensions["arbiter"].close()
    out = tmp_path / "packet.html"
    result = CliRunner().invoke(group, ["fairplay", "--tournament", created["id"], "--database-url", url, "--samples",
                                        "2", "--perfect-samples", "1", "--worlds", "2", "--workers", "1", "--refer",
                                        "1", "--packet", str(out), "--base-url", "https://arbiter.example"])
    assert result.exit_code == 1, result.output  # --refer 1: the screen refers everyone
    text = out.read_text(encoding="utf-8")
    assert sorted(re.findall(r"<td>(Player [A-Z]+)</td>", text)) == ["Player A", "Player B"]
    assert not any(name in text for name in NAMES)
    assert "never a verdict" in text and "Spring open" in text and "https://arbiter.example" in text
    assert "--refer 1.0" in text  # the packet's command reproduces both stages


def test_the_packet_s_table_of_a_decision_is_the_seat_s_view_the_store_gives_before_that_move(app):
    """The packet builds a seat's table from the record (no store needed: the CLI on files); it is the very table the
    store's view of that seat shows at the version before the move, which the seat-view link opens."""
    from service.fairplay.facade import tournament_games
    from service.fairplay.packet import seat_view

    created = played_tournament(app)
    desk = app.extensions["arbiter"].tournaments
    _, games = tournament_games(desk, created["id"])
    compared = 0
    for g in games:
        for i, move in enumerate(g.record.moves[:12]):
            before = desk.app.game(UUID(g.game_id), g.versions[i] - 1)
            store = view(before, Viewer.of_seat(move["seat"]), withheld=True)["table"]
            assert seat_view(g.record, move["seat"], i) == store, (g.label, i)
            compared += 1
    assert compared >= 12
