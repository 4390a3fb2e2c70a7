"""The rulebooks on the web (Flask test client): /rules and /rules/<game> from the rulebooks the game packages ship
(or a directory that overrides them), the page when the rulebooks are not installed, and the clause links that refusals carry on the table, in the audit, on the error page and in the API's
problem details (`rule_url`, a member added beside contract §3's `rule`)."""

from __future__ import annotations

import re
import shutil
from html.parser import HTMLParser

import pytest

from api import create_app
from api.pages.errors import page_error
from api.pages.rulebooks import packaged_rulebook
from domain.games import DECIDERS, SPECS

from .api_support import API, CheckedClient, assert_problem, create, to_act

CLAUSE_LINK = re.compile(r'<a class="clause" href="(/rules/[a-z0-9-]+(?:\?edition=[a-z0-9_-]+)?#[A-Z]{2,4}-[\d.]+)"[^>]*>'
                         r'([A-Z]{2,4}-[\d.]+)</a>')


class Anchors(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.ids += [v for k, v in attrs if k == "id"]


def anchors(html: str) -> list[str]:
    parser = Anchors()
    parser.feed(html)
    return parser.ids


def make_client(**config):
    app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1, **config})
    app.test_client_class = CheckedClient
    return app.test_client()


@pytest.fixture
def client():
    return make_client()


def refused(client):
    """An El Royale game where the seat not to act tried to pass: (game id, problem body)."""
    table = create(client, 2)
    idle = 1 - to_act(client, table)
    response = client.post(f"{table.url}/moves", json={"type": "pass"}, headers=table.seat(idle))
    return table, idle, assert_problem(response, 422)


def follow(client, href: str) -> str:
    """The rulebook page a clause link points at, checked to hold the anchor it names."""
    path, anchor = href.split("#")
    page = client.get(path)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert anchors(html).count(anchor) == 1, f"{href}: the page has no single anchor {anchor}"
    return html


@pytest.mark.parametrize("game", sorted(DECIDERS))
def test_every_game_s_rulebook_page_has_an_anchor_for_each_clause_it_defines(client, game):
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    defined = re.findall(r"^(?:- |#{1,6} )([A-Z]{2,4}-\d+(?:\.\d+)*)\b", packaged_rulebook(game).read_text(), re.M)
    ids = anchors(html)
    for code in defined:
        assert ids.count(code) == 1, code
    assert SPECS[game].title in html


def test_the_rules_index_lists_every_game_with_a_link_and_every_page_links_to_it(client):
    html = client.get("/rules").get_data(as_text=True)
    assert "not installed" not in html  # by default, every game's rulebook from its package
    for game, spec in SPECS.items():
        assert f'href="/rules/{game}"' in html and spec.title in html
    assert 'class="site-rules" href="/rules"' in client.get("/").get_data(as_text=True)


def test_an_unknown_game_s_rulebook_is_a_404_page_naming_the_games(client):
    page = client.get("/rules/chess")
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "chess" in page.get_data(as_text=True) and "el-royale" in page.get_data(as_text=True)


def test_without_the_rulebooks_the_page_says_they_are_not_installed_and_where_arbiter_looks(tmp_path):
    nowhere = tmp_path / "no-rules"
    client = make_client(RULES_DIR=str(nowhere))
    page = client.get("/rules/el-royale")
    text = page.get_data(as_text=True)
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "not installed" in text and str(nowhere / "el-royale.md") in text and "ARBITER_RULES_DIR" in text
    assert 'id="back-to-lobby"' in text  # the HTML error page, with a way back
    index = client.get("/rules").get_data(as_text=True)
    assert "not installed" in index and str(nowhere) in index
    _table, _idle, problem = refused(client)  # a refusal still answers, its clause as plain text
    assert problem["rule"] and "rule_url" not in problem


def test_the_rulebooks_directory_comes_from_the_environment(tmp_path, monkeypatch):
    shutil.copy(packaged_rulebook("small-battle"), tmp_path / "small-battle.md")
    monkeypatch.setenv("ARBITER_RULES_DIR", str(tmp_path))
    client = make_client()
    assert client.get("/rules/small-battle").status_code == 200
    assert client.get("/rules/el-royale").status_code == 404


def test_an_illegal_move_s_problem_details_link_to_its_clause_and_keep_the_contract_s_members(client):
    _table, _idle, problem = refused(client)
    assert {"type", "title", "status", "detail", "rule"} <= set(problem)
    url = problem["rule_url"]
    assert re.fullmatch(r"http://localhost/rules/el-royale\?edition=revised#ER-[\d.]+", url), url  # the game's edition
    anchor = url.split("#")[1]
    assert anchor == problem["rule"] or problem["rule"].startswith(anchor + ".")  # ER-3.0 lives in section ER-3
    follow(client, url.replace("http://localhost", ""))


def test_a_refusal_on_the_table_links_its_clause(client):
    table, idle, _problem = refused(client)
    client.get(f"/join/{table.id}/{table.seat_tokens[idle]}")
    page = client.post(f"/games/{table.id}/act", data={"type": "pass"})
    assert page.status_code == 422
    links = CLAUSE_LINK.findall(page.get_data(as_text=True))
    assert links, "the refusal's clause is no link"
    for href, code in links:
        assert href.startswith("/rules/el-royale?edition=revised#")  # the game's own edition
        follow(client, href)


def test_the_audit_links_the_clause_of_every_refusal(client):
    table, idle, problem = refused(client)
    client.get(f"/join/{table.id}/{table.referee_token}")
    html = client.get(f"/games/{table.id}/audit").get_data(as_text=True)
    codes = [code for _href, code in CLAUSE_LINK.findall(html)]
    assert problem["rule"] in codes
    for href, _code in CLAUSE_LINK.findall(html):
        follow(client, href)


def test_the_error_page_links_a_clause_it_shows_and_leaves_an_unknown_id_as_text(client):
    app = client.application
    with app.test_request_context("/games/x"):
        html, status = page_error(422, "Illegal move", "not your turn", rule="SB-2.1")
        assert status == 422 and '<a class="clause" href="/rules/small-battle#SB-2.1"' in html
        html, _status = page_error(422, "Illegal move", "not your turn", rule="ZZ-1.1")
        assert '<span class="clause">ZZ-1.1</span>' in html and 'href="/rules' not in html.split("<main>")[1]


def test_a_clause_a_game_s_partial_names_links_to_its_rule(client):
    doc = client.post(f"{API}/games", json={"game": "small-battle", "options": {}, "seed": "5b5b", "starter": 0,
                                             "players": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    for seat in doc["seats"]:
        answer = client.post(f"{API}/games/{doc['id']}/moves", json={"type": "arrange", "formation": list("23456789")},
                             headers={"Authorization": f"Bearer {seat['token']}"})
        assert answer.status_code == 200
    html = client.get(f"/games/{doc['id']}").get_data(as_text=True)
    assert ("/rules/small-battle#SB-1.3", "SB-1.3") in CLAUSE_LINK.findall(html)  # "Commitment (SB-1.3)"


def test_narration_links_the_clause_ids_it_names_and_stays_escaped(client):
    with client.application.test_request_context("/"):
        env = client.application.jinja_env
        html = env.from_string("{{ t | with_cards | with_clauses }}").render(t="drawn (ER-4.4) <b>x</b> 8H ZZ-1.1 ER-4.4x")
    assert CLAUSE_LINK.findall(html) == [("/rules/el-royale#ER-4.4", "ER-4.4")]
    assert "&lt;b&gt;" in html and "<b>" not in html and "ZZ-1.1" in html


def test_a_clause_named_in_a_lobby_error_links_to_its_rule(client):
    page = client.post("/", data={"game": "small-battle", "name": ["Ann", "Bob", "Cat"]})
    html = page.get_data(as_text=True)
    assert page.status_code == 422
    assert re.search(r'<a class="clause" href="[^"]*#SB-1\.1">SB-1\.1</a>', html), "the lobby's error leaves SB-1.1 as text"


def shown_ids(html: str) -> set[str]:
    """The ids of the elements a page shows: every id not inside an element marked hidden."""
    class Shown(HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack, self.ids = [], set()

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            hidden = "hidden" in attrs or (self.stack[-1] if self.stack else False)
            if tag not in ("br", "img", "input", "meta", "link", "hr"):
                self.stack.append(hidden)
            if "id" in attrs and not hidden:
                self.ids.add(attrs["id"])

        def handle_endtag(self, tag):
            if tag not in ("br", "img", "input", "meta", "link", "hr") and self.stack:
                self.stack.pop()

    parser = Shown()
    parser.feed(html)
    return parser.ids


def test_an_edition_hides_every_clause_and_section_of_the_other_edition_and_keeps_its_own(client):
    """Classic only: ER-5.1 and ER-5.2 (a section "revised only") and all of ER-6 ("revised") are hidden, and ER-6 is
    gone from the contents; ER-5.3 (classic: no player is ever eliminated) shows, under its heading. Revised only:
    ER-5.3 is hidden, ER-5.1 shows. Every edition: all of them."""
    classic = client.get("/rules/el-royale?edition=classic").get_data(as_text=True)
    shown = shown_ids(classic)
    assert {"ER-5.1", "ER-5.2", "ER-6", "ER-6.1", "ER-6.4"}.isdisjoint(shown), shown
    assert {"ER-5", "ER-5.3", "ER-4.1", "ER-3.4"} <= shown
    contents = classic[classic.index('id="contents"'):classic.index("</nav>")]
    assert 'href="#ER-6"' not in contents and 'href="#ER-5"' in contents
    revised = shown_ids(client.get("/rules/el-royale?edition=revised").get_data(as_text=True))
    assert "ER-5.3" not in revised and {"ER-5.1", "ER-6.2"} <= revised
    every = shown_ids(client.get("/rules/el-royale").get_data(as_text=True))
    assert {"ER-5.1", "ER-5.3", "ER-6", "ER-6.2"} <= every


def test_a_classic_games_refusal_links_its_clause_in_the_classic_edition_in_the_api_and_on_the_table(client):
    table = create(client, 2, edition="classic")
    idle = 1 - to_act(client, table)
    problem = assert_problem(client.post(f"{table.url}/moves", json={"type": "pass"}, headers=table.seat(idle)), 422)
    assert "/rules/el-royale?edition=classic#" in problem["rule_url"], problem["rule_url"]
    client.get(f"/join/{table.id}/{table.seat_tokens[idle]}")
    page = client.post(f"/games/{table.id}/act", data={"type": "pass"}).get_data(as_text=True)
    hrefs = [href for href, _code in CLAUSE_LINK.findall(page)]
    assert hrefs and all(h.startswith("/rules/el-royale?edition=classic#") for h in hrefs), hrefs
    assert 'data-edition="classic"' in follow(client, hrefs[0])
