"""The replay's move list, windowed (issue 27): a long game's list is drawn in blocks of BLOCK lines, only those near
the version shown by the server (the page stays small), the others as gaps that link to their first version (so the
list works without a script, a page a window), and every line once more as JSON (`lines`) for static/replay.js, which
draws the blocks that scroll into sight and drops those far from it (a 5,000-event game's list is 5,000 lines:
30,000 nodes in the page made every step's frame three times dearer).

A list of at most WHOLE lines is drawn whole, as before.
"""

from __future__ import annotations

from flask import get_template_attribute

BLOCK = 50  # lines a block
WHOLE = 300  # a list this long or shorter is drawn whole


def window(items: list[dict], current: int | None) -> dict:
    """The list as the page draws it: `size` (BLOCK), `windowed` (some blocks left out) and `blocks` in order, each
    `{"index", "items"}` drawn or `{"index", "gap", "first", "last", "lines", "shown"}` (the versions it spans, its
    lines, those not folded) left for the script; the block holding `current` and its neighbours are drawn, every
    block when the list is at most WHOLE lines."""
    return {"size": BLOCK, "windowed": len(items) > WHOLE, "blocks": _blocks(items, current)}


def _blocks(items: list[dict], current: int | None) -> list[dict]:
    spans = [items[i:i + BLOCK] for i in range(0, len(items), BLOCK)]
    if len(items) <= WHOLE:
        return [{"index": k, "items": span} for k, span in enumerate(spans)]
    at = _line_of(items, current) // BLOCK
    out = []
    for k, span in enumerate(spans):
        if abs(k - at) <= 1:
            out.append({"index": k, "items": span})
        else:
            out.append({"index": k, "gap": True, "first": span[0]["entry"]["version"],
                        "last": span[-1]["entry"]["version"], "lines": len(span),
                        "shown": sum(1 for it in span if it["under"] is None)})
    return out


def _line_of(items: list[dict], version: int | None) -> int:
    """The index of version's entry (else its first line, else the first line after it; the last line for None)."""
    if version is None:
        return len(items) - 1
    exact = [i for i, it in enumerate(items) if it["entry"]["version"] == version]
    entry = [i for i in exact if items[i]["kind"] != "refusal"]
    after = [i for i, it in enumerate(items) if it["entry"]["version"] > version]
    return (entry or exact or after or [len(items) - 1])[0]


def lines_document(items: list[dict], view: dict, game_id: str) -> dict:
    """Every line of the list for the script: `lines` [version, kind, under, html] in log order (the same markup the
    page draws), `refused` {version: the refusals' paragraphs shown above the board at that version}, `talk`
    [version, html] (the table talk's lines of the board), `block` the block size."""
    line = get_template_attribute("move_list.html", "move_line")
    refused_here = get_template_attribute("move_list.html", "refused_here")
    talk_line = get_template_attribute("move_list.html", "talk_line")
    lines, refused, talk = [], {}, []
    for it in items:
        e = it["entry"]
        lines.append([e["version"], it["kind"], it["under"], str(line(it, view, game_id))])
        if it["kind"] == "refusal":
            refused[str(e["version"])] = refused.get(str(e["version"]), "") + str(refused_here(e, view))
        elif e["type"] == "said":
            talk.append([e["version"], str(talk_line(e, view))])
    return {"block": BLOCK, "lines": lines, "refused": refused, "talk": talk}
