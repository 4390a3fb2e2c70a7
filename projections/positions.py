"""Every version's view of a game as one compact document, for the replay viewer (docs/api.md, "Positions").

A replay steps through thousands of versions; each view repeats almost everything of the one before it (a move changes
a hand, a pile, whose turn). `positions(views)` keeps the first view whole and each later one as its difference from
the one before (`diff`); `expand(doc)` rebuilds every view (`patch` applied in turn), as the browser's
api/static/replay_positions.js does. The server computes every view (projections.views.view: the rules stay on the
server); the browser only patches dicts.

A difference is a list of operations, each a list: ``[path, value]`` sets the value at `path` (a list of dict keys and
list indexes), ``[path]`` deletes the key at `path`. Dicts are compared key by key and lists of the same length item
by item; a list whose length changed is set whole (a hand, a pile: a few cards). Pure: no I/O.

The per-version fields every view repeats and the viewer does not draw are left out (`LEFT_OUT`: the chain head, a
hash that changes every version and does not compress; the commitment; the id): a view's version is its place.
"""

from __future__ import annotations

import copy
from typing import Any, Iterable

FORMAT = "arbiter.positions/1"
LEFT_OUT = ("chain_head", "commitment", "id")


def diff(old: Any, new: Any, path: tuple = ()) -> list[list]:
    """The operations that turn `old` into `new` (both JSON values); [] when they are equal."""
    if type(old) is not type(new):
        return [[list(path), new]]
    if isinstance(new, dict):
        ops: list[list] = []
        for key, value in new.items():
            if key not in old:
                ops.append([[*path, key], value])
            elif old[key] != value:
                ops.extend(diff(old[key], value, (*path, key)))
        ops.extend([[*path, key]] for key in old if key not in new)
        return ops
    if isinstance(new, list) and len(new) == len(old):
        ops = []
        for i, (a, b) in enumerate(zip(old, new)):
            if a != b:
                ops.extend(diff(a, b, (*path, i)))
        return ops
    return [] if old == new else [[list(path), new]]


def patch(value: Any, ops: list[list]) -> Any:
    """`value` with `ops` applied (value is changed in place where it can be; use the result)."""
    for op in ops:
        path = op[0]
        if not path:
            value = op[1]
            continue
        parent = value
        for key in path[:-1]:
            parent = parent[key]
        if len(op) == 1:
            del parent[path[-1]]
        else:
            parent[path[-1]] = op[1]
    return value


def trimmed(view: dict) -> dict:
    """A view without the fields the replay does not draw (`LEFT_OUT`)."""
    return {k: v for k, v in view.items() if k not in LEFT_OUT}


def positions(views: Iterable[dict], first_version: int = 1) -> dict:
    """The compact document of consecutive views (the first at `first_version`): the first view trimmed, then one
    difference per later version."""
    base, diffs, before = None, [], None
    for view in views:
        now = trimmed(view)
        if before is None:
            base = now
        else:
            diffs.append(diff(before, now))
        before = now
    if base is None:
        raise ValueError("positions: no view")
    return {"format": FORMAT, "first": first_version, "latest": first_version + len(diffs), "view": base,
            "diffs": diffs}


def expand(doc: dict) -> list[dict]:
    """Every view a positions document holds, in version order (what the browser rebuilds)."""
    current = copy.deepcopy(doc["view"])
    out = [copy.deepcopy(current)]
    for ops in doc["diffs"]:
        current = patch(current, copy.deepcopy(ops))
        out.append(copy.deepcopy(current))
    return out
