"""A study's tree as the page lists it (issue 36 part 7): one row per node, in the order a lichess study chapter
reads: a move, then the branches that are its alternatives (each a whole line, one level deeper), then the line
goes on. Walked with a stack, not recursion: a study may hold thousands of nodes, and branches inside branches."""

from __future__ import annotations


def tree_rows(nodes: list[dict]) -> list[dict]:
    """Rows {"node", "depth", "starts"} (`starts`: the first move of a branch) for the study's `nodes` (the API's)."""
    rows: list[dict] = []
    tasks: list[tuple[int, int, bool]] = [(0, 0, True)]  # (node, depth, whether to list the node itself)
    while tasks:
        current, depth, listed = tasks.pop()
        if listed:
            rows.append({"node": nodes[current], "depth": depth, "starts": depth > 0 and current != 0})
        while nodes[current]["children"]:
            first, *others = nodes[current]["children"]
            rows.append({"node": nodes[first], "depth": depth, "starts": False})
            if others:  # the alternatives to `first`, each a line of its own, then the line goes on after `first`
                tasks.append((first, depth, False))
                tasks.extend((other, depth + 1, True) for other in reversed(others))
                break
            current = first
    return rows
