"""The desk's fair-play report of a tournament (docs/fairplay.md): only the tournament's referee (its director, whose
link the browser keeps) may open it, since it is computed from every card of the games; a seat, a spectator or
another tournament's director is refused, an unknown tournament is named, and nothing shows a traceback."""

from __future__ import annotations

from tests.tournament_support import finish


def played_tournament(app) -> dict:
    desk = app.extensions["tournaments"]
    created = desk.create({"name": "Screened", "game": "small-battle", "players": ["Ann", "Bob"],
                           "format": "round-robin"})
    desk.start_round(created["id"], created["director_token"])
    for g in desk.seatings(created["id"])["games"]:
        finish(desk.app, g["game_id"])
    return created


def test_the_director_sees_each_player_s_line_and_nobody_else_sees_the_report(app, client):
    created = played_tournament(app)
    tid, token = created["id"], created["director_token"]
    url = f"/tournaments/{tid}/fairplay"
    spectator = client.get(url)
    assert spectator.status_code == 401 and 'id="fairplay"' not in spectator.get_data(as_text=True)
    assert "director" in spectator.get_data(as_text=True)
    games = app.extensions["tournaments"].links(tid, token)["games"]
    seat_token = games[0]["seats"][0]["token"]
    client.get(f"/join/{games[0]['game_id']}/{seat_token}")  # the browser now holds a seat's link, not the director's
    as_seat = client.get(url)
    assert as_seat.status_code == 401 and 'id="fairplay"' not in as_seat.get_data(as_text=True)
    client.set_cookie("arbiter_td_" + tid.replace("-", ""), seat_token, path="/tournaments/")  # a seat token posing
    assert client.get(url).status_code in (401, 403)
    other = app.extensions["tournaments"].create({"name": "Other", "game": "small-battle", "players": ["C", "D"],
                                                 "format": "round-robin"})
    client.set_cookie("arbiter_td_" + tid.replace("-", ""), other["director_token"], path="/tournaments/")
    assert client.get(url).status_code == 403
    client.get(f"/tournaments/{tid}/director/{token}")
    page = client.get(url)
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="fairplay"' in text
    assert 'data-player="Ann"' in text and 'data-player="Bob"' in text and "never a verdict" in text
    assert page.headers["Cache-Control"] == "no-store"
    assert 'id="fairplay-link"' in client.get(f"/tournaments/{tid}").get_data(as_text=True)


def test_an_unknown_tournament_is_named(client):
    missing = client.get("/tournaments/00000000-0000-0000-0000-000000000001/fairplay")
    assert missing.status_code == 404 and "no tournament with id" in missing.get_data(as_text=True)
    garbage = client.get("/tournaments/not-an-id/fairplay")
    assert garbage.status_code == 404


def test_the_command_screens_a_stored_tournament_s_finished_games(tmp_path):
    import json

    from click.testing import CliRunner

    from api.cli.group import group
    from service.facade import Arbiter
    from service.tournaments.facade import Tournaments

    url = f"sqlite:///{tmp_path / 'store.db'}"
    arbiter = Arbiter(url)
    try:
        desk = Tournaments(arbiter)
        created = desk.create({"name": "Stored", "game": "small-battle", "players": ["Ann", "Bob"],
                               "format": "round-robin"})
        desk.start_round(created["id"], created["director_token"])
        for g in desk.seatings(created["id"])["games"]:
            finish(arbiter.app, g["game_id"])
    finally:
        arbiter.app.close()
    result = CliRunner().invoke(group, ["fairplay", "--tournament", created["id"], "--database-url", url,
                                        "--samples", "4", "--perfect-samples", "2", "--worlds", "2", "--workers", "1",
                                        "--json"])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(result.stdout)
    assert doc["games"] >= 1 and [p["player"] for p in doc["players"]] == ["Ann", "Bob"]
    assert all(p["decisions"] > 0 for p in doc["players"])
