"""The replay's move list, windowed (api/pages/move_window.py): a long list is drawn around the version shown, in
blocks, every line of it in exactly one block, drawn or a gap that names the versions it spans."""

from __future__ import annotations

from api.pages.move_window import BLOCK, WHOLE, window


def items(versions: list[tuple[int, str]]) -> list[dict]:
    return [{"entry": {"version": v}, "kind": kind, "under": None} for v, kind in versions]


def lines(n: int, refused_at: int | None = None) -> list[dict]:
    out = []
    for v in range(1, n + 1):
        out.append((v, "event"))
        if v == refused_at:
            out.append((v, "refusal"))
    return items(out)


def drawn_versions(w: dict) -> list[int]:
    return [it["entry"]["version"] for b in w["blocks"] if not b.get("gap") for it in b["items"]]


def test_a_list_of_at_most_whole_lines_is_drawn_whole():
    w = window(lines(WHOLE), 1)
    assert not w["windowed"] and drawn_versions(w) == list(range(1, WHOLE + 1))


def test_a_long_list_draws_the_block_of_the_version_shown_and_its_neighbours_and_gaps_span_the_rest():
    listed = lines(WHOLE * 4, refused_at=777)
    for current in (1, 777, 778, WHOLE * 2, WHOLE * 4, None):
        w = window(listed, current)
        assert w["windowed"] and w["size"] == BLOCK
        drawn = drawn_versions(w)
        assert (current or WHOLE * 4) in drawn and len(drawn) <= 3 * BLOCK
        spans = [(b["first"], b["last"]) for b in w["blocks"] if b.get("gap")]
        assert spans and sum(b["lines"] for b in w["blocks"] if b.get("gap")) + len(drawn) == len(listed)
        covered = set(drawn) | {v for first, last in spans for v in range(first, last + 1)}
        assert covered == set(range(1, WHOLE * 4 + 1))
        assert [b["index"] for b in w["blocks"]] == list(range(len(w["blocks"])))
