"""The rulebooks as the web shows them (api.pages.rulebooks): one anchor per clause id, ids resolved to the book that
defines them, rulings marked, and a file's own HTML never passed through. The real rulebooks are the ones the
game packages ship (domain/<game module>/rulebook.md).

The clause ids expected are read from the files here with a plain line pattern (a list item or a heading that
begins with an id), independently of the markdown parser under test.
"""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from api.pages.rulebooks import RulebookMissing, Shelf, packaged_rulebook, rules_dir
from domain.games import DECIDERS, SPECS, module_name

DEFINES = re.compile(r"^(?:- |#{1,6} )([A-Z]{2,4}-\d+(?:\.\d+)*)(?=[\s:,;)]|$)")
GAMES = sorted(DECIDERS)


def defined_ids(path: Path) -> list[str]:
    return [m.group(1) for line in path.read_text(encoding="utf-8").splitlines() if (m := DEFINES.match(line))]


class Elements(HTMLParser):
    """Every start tag's (tag, attributes), in order."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def elements(html: str) -> list[tuple[str, dict]]:
    parser = Elements()
    parser.feed(html)
    return parser.tags


def href(game: str, anchor: str) -> str:
    return f"/rules/{game}#{anchor}"


def write(directory: Path, game: str, text: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{game}.md").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_ships_its_rulebook_and_the_default_shelf_reads_it(game):
    path = packaged_rulebook(game)
    assert path == Path(__file__).resolve().parents[2] / "domain" / module_name(game) / "rulebook.md"
    assert path.is_file(), f"the package of {game} ships no rulebook.md"
    assert Shelf().book(game).path == path and Shelf().where(game) == path


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_id_of_a_rulebook_gets_exactly_one_anchor_and_nothing_else_gets_one(game):
    ids = defined_ids(packaged_rulebook(game))
    assert len(ids) > 10 and len(ids) == len(set(ids)), "the rulebook defines each id once"
    anchors = [attrs["id"] for _tag, attrs in elements(Shelf().html(game, href)) if "id" in attrs]
    assert sorted(anchors) == sorted(ids)


def test_every_clause_id_resolves_to_the_one_rulebook_that_defines_it():
    shelf = Shelf()
    seen = {}
    for game in GAMES:
        for code in defined_ids(packaged_rulebook(game)):
            assert code not in seen, f"{code} is defined by {seen.get(code)} and {game}"
            seen[code] = game
            assert shelf.locate(code) == (game, code)
    assert set(seen.values()) == set(DECIDERS) == set(shelf.books()), "every registered game has a rulebook"


def test_a_clause_id_the_engine_cites_resolves_to_a_rule_of_its_own_game():
    """Every id the deciders cite (found in their source) has a page: ER-3.0, mentioned only in ER-3's text, goes to
    section ER-3."""
    shelf = Shelf()
    root = Path(__file__).resolve().parents[2] / "domain"
    for game, decider in DECIDERS.items():
        package = root / game.replace("-", "_")
        cited = {m for f in package.glob("*.py") for m in re.findall(rf'"({SPECS[game].prefix}-\d+(?:\.\d+)*)"', f.read_text())}
        assert cited, game
        for code in cited:
            target = shelf.locate(code)
            assert target is not None and target[0] == game, (code, target)
    assert shelf.locate("ER-3.0") == ("el-royale", "ER-3")


def test_which_game_a_clause_belongs_to_is_read_from_the_files_not_from_a_table(tmp_path):
    write(tmp_path, "zebra", "# Zebra\n\n## ZB-1 Set-up\n\n- ZB-1.1 Two players.\n- ZB-1.2 See ZB-1.1 and ZQ-4.\n")
    write(tmp_path, "quagga", "# Quagga\n\n- ZQ-4 One rule only.\n")
    shelf = Shelf(tmp_path)
    assert shelf.locate("ZB-1.2") == ("zebra", "ZB-1.2")
    assert shelf.locate("ZB-1") == ("zebra", "ZB-1")
    assert shelf.locate("ZQ-4") == ("quagga", "ZQ-4")
    html = shelf.html("zebra", href)
    assert '<a class="clause" href="#ZB-1.1">ZB-1.1</a>' in html  # same book: the anchor
    assert '<a class="clause" href="/rules/quagga#ZQ-4">ZQ-4</a>' in html  # another book: its page


@pytest.mark.parametrize("code", ["ZB-9.9", "ZB-1.7", "XX-1", "zb-1.1", "ZB-1.1 ", "", None, 3, ["ZB-1.1"]])
def test_an_id_no_rulebook_defines_or_mentions_resolves_to_nothing(tmp_path, code):
    write(tmp_path, "zebra", "## ZB-1 Set-up\n\n- ZB-1.1 Two players.\n")
    assert Shelf(tmp_path).locate(code) is None


def test_rulings_are_marked_where_the_text_says_r_and_in_a_section_of_rulings(tmp_path):
    write(tmp_path, "zebra", "## ZB-1 Play\n\n- ZB-1.1 Plain.\n- ZB-1.2 Text. R: our call.\n- ZB-1.3 Rooks, R2 and\n  ERR: none.\n\n"
                             "## ZB-2 Rulings on procedure\n\n- ZB-2.1 Checks run in order.\n")
    tags = {attrs["id"]: attrs.get("class", "").split() for _t, attrs in elements(Shelf(tmp_path).html("zebra", href))
            if "id" in attrs}
    assert "ruling" in tags["ZB-1.2"] and "ruling" in tags["ZB-2.1"]
    assert "ruling" not in tags["ZB-1.1"] and "ruling" not in tags["ZB-1.3"]
    html = Shelf(tmp_path).html("zebra", href)
    assert html.count('class="ruling-mark"') == 1 and html.count('class="ruling-badge"') == 2


def test_a_real_ruling_is_marked_and_a_plain_clause_is_not():
    classes = {a["id"]: a.get("class", "") for _t, a in elements(Shelf().html("el-royale", href)) if "id" in a}
    assert "ruling" in classes["ER-1.2"].split()  # "R: either every player names a team or none does"
    assert "ruling" not in classes["ER-1.1"].split()


def test_html_written_in_a_rulebook_is_shown_as_text_never_as_markup(tmp_path):
    write(tmp_path, "zebra", '# Z <script>alert(1)</script>\n\n- ZB-1.1 <img src=x onerror="alert(2)"> and '
                             '[a link](javascript:alert(3))\n\n<div onclick="x()">block</div>\n')
    html = Shelf(tmp_path).html("zebra", href)
    tags = [t for t, _a in elements(html)]
    assert "script" not in tags and "img" not in tags and "div" not in tags
    assert not [a for t, a in elements(html) if t == "a" and "javascript" in (a.get("href") or "")]
    assert "&lt;script&gt;" in html


def test_a_missing_rulebook_names_the_file_and_the_directory_it_was_looked_for(tmp_path):
    with pytest.raises(RulebookMissing) as missing:
        Shelf(tmp_path / "nowhere").book("zebra")
    message = str(missing.value)
    assert str(tmp_path / "nowhere" / "zebra.md") in message and "does not exist" in message
    assert "ARBITER_RULES_DIR" in message
    assert Shelf(tmp_path / "nowhere").locate("ZB-1.1") is None


def test_a_registered_game_without_a_packaged_rulebook_names_where_it_was_looked_for(monkeypatch):
    zebra = dataclasses.replace(SPECS["small-battle"], id="zebra-stripes", rulebook=None)  # a game declaring none
    monkeypatch.setitem(SPECS, "zebra-stripes", zebra)
    shelf = Shelf()
    assert "zebra-stripes" not in shelf.books() and "small-battle" in shelf.books() and shelf.found()
    with pytest.raises(RulebookMissing) as missing:
        shelf.book("zebra-stripes")
    where = Path(__file__).resolve().parents[2] / "domain" / "zebra_stripes" / "rulebook.md"
    assert missing.value.path == where and str(where) in str(missing.value) and "ARBITER_RULES_DIR" in str(missing.value)
    with pytest.raises(RulebookMissing):
        shelf.book("chess")  # no registered game either: looked for in its would-be package all the same


def test_an_edited_rulebook_is_read_again(tmp_path):
    write(tmp_path, "zebra", "- ZB-1.1 One.\n")
    shelf = Shelf(tmp_path)
    assert shelf.locate("ZB-1.2") is None
    write(tmp_path, "zebra", "- ZB-1.1 One.\n- ZB-1.2 And two, a longer line.\n")
    assert shelf.locate("ZB-1.2") == ("zebra", "ZB-1.2")
    assert 'id="ZB-1.2"' in shelf.html("zebra", href)


def test_the_directory_comes_from_the_config_then_the_environment_else_the_packages(monkeypatch, tmp_path):
    monkeypatch.delenv("ARBITER_RULES_DIR", raising=False)
    assert rules_dir({}) is None and Shelf(rules_dir({})).directory is None  # the default: each game package's own
    assert Shelf().where("el-royale") == Path(__file__).resolve().parents[2] / "domain" / "el_royale" / "rulebook.md"
    assert Shelf().looks_in().endswith("/domain/<game module>/rulebook.md")
    monkeypatch.setenv("ARBITER_RULES_DIR", "")
    assert rules_dir({}) is None
    monkeypatch.setenv("ARBITER_RULES_DIR", str(tmp_path / "env"))
    assert rules_dir({}) == tmp_path / "env"
    assert rules_dir({"RULES_DIR": str(tmp_path / "config")}) == tmp_path / "config"
