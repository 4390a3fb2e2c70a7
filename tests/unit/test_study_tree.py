"""A study is a tree of variations (issue 36 part 7, docs/studies.md): its state is the fold of its events (node 0 the
start; each node's first child continues its line, any other a branch), the studies stored as one line before the
tree fold into the same tree, and the page lists the rows in the order a lichess chapter reads."""

from __future__ import annotations

from domain.study import ROOT, Study
from api.pages.study_tree import tree_rows


def _study() -> Study:
    return Study(game_id="g", game="el-royale", game_version=3, seat=1, seed="s", every_seat=False, by="seat 1")


def _m(kind: str, seat: int = 1) -> dict:
    return {"type": kind, "seat": seat}


def test_a_move_at_a_node_that_has_a_child_starts_a_branch_there():
    s = _study()
    a = s.add_node(ROOT, _m("pass"), "user")
    b = s.add_node(a, _m("claim", 2), "bot")
    c = s.add_node(ROOT, _m("concede"), "user")
    assert s.nodes[ROOT]["children"] == [a, c]
    assert s.path(b) == [ROOT, a, b] and s.path(c) == [ROOT, c]
    assert s.line_end(ROOT) == b and s.line_end(c) == c
    assert s.child_with(ROOT, _m("concede")) == c and s.child_with(ROOT, _m("take")) is None
    assert [n["ply"] for n in s.nodes] == [0, 1, 2, 1]


def test_the_tree_is_the_fold_of_the_studys_events():
    s = _study()
    a = s.add_node(ROOT, _m("pass"), "user")
    s.add_node(ROOT, _m("concede"), "user")
    s.comment(a, "seat 1", "why pass?")
    again = None
    for event in s.collect_events():
        again = event.mutate(again)
    assert again.nodes == s.nodes and again.comments == s.comments


def test_a_study_stored_as_one_line_before_the_tree_folds_into_one_line():
    s = _study()
    s.trigger_event(Study.Played, move=_m("pass"), by="user")
    s.trigger_event(Study.Played, move=_m("pass", 2), by="bot")
    s.comment(2, "referee", "and then")
    assert [n["parent"] for n in s.nodes] == [None, 0, 1]
    assert s.line_end(ROOT) == 2 and s.comments[0]["at"] == 2


def test_the_rows_list_a_move_then_its_alternatives_then_the_line_goes_on():
    s = _study()
    a = s.add_node(ROOT, _m("a"), "user")
    a2 = s.add_node(a, _m("a2", 2), "bot")
    b = s.add_node(ROOT, _m("b"), "user")
    b2 = s.add_node(b, _m("b2", 2), "bot")
    b3 = s.add_node(b, _m("b3", 2), "bot")
    rows = tree_rows(s.nodes)
    assert [(r["node"]["id"], r["depth"], r["starts"]) for r in rows] == [
        (ROOT, 0, False), (a, 0, False), (b, 1, True), (b2, 1, False), (b3, 2, True), (a2, 0, False)]


def test_a_deep_tree_of_branches_in_branches_is_listed_without_recursion():
    s = _study()
    node = ROOT
    for k in range(3000):  # each node gets two children: a line, and a branch that goes on
        s.add_node(node, _m(f"x{k}"), "user")
        node = s.add_node(node, _m(f"y{k}"), "user")
    assert len(tree_rows(s.nodes)) == len(s.nodes)


def test_a_kept_walk_is_not_used_for_a_node_the_saved_study_numbers_differently():
    """A command walks its new node, then its save fails (a conflict) and the retry adds another move there."""
    from service.studies.walks import Walks

    class Start:  # a sandbox's stand-in: a state is the path of moves, words are the move's type
        state = ()
        setup = type("Setup", (), {"names": ["a", "b"]})()

    import dataclasses

    @dataclasses.dataclass
    class Box:
        state: tuple
        setup: object = Start.setup

        def play(self, move):
            self.state = self.state + (move["type"],)

    import copy

    walks, start, base = Walks(), Box(()), _study()
    lost, saved = copy.deepcopy(base), copy.deepcopy(base)  # one study: the command's copy, the one saved
    lost.add_node(ROOT, _m("x"), "user")
    walks.walk(lost, start)
    saved.add_node(ROOT, _m("y"), "user")  # the retry's move got node 1
    states, _ = walks.walk(saved, start)
    assert states[1] == ("y",)
