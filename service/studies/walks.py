"""A study's tree replayed (issue 36 part 7, docs/studies.md "Stored and shared"): every node's state and its words,
in the order the nodes were added (a parent always comes before its children), each node from its parent's state.

A user's move is told as it was played; a bot's as the study's seat saw it (sandbox.seen_text), so the tree shows
that seat nothing it could not see. Nodes are only ever added, so the walk of the studies read last is kept and the
next read replays only the nodes added since. A kept node is used only while the study still has it (the same
parent, move and author): a command whose study was not saved (its unit of work retried after a conflict) may have
walked a node that the saved study numbers differently.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from domain.study import ROOT, Study
from projections.narration import move_text

from .sandbox import Sandbox, seen_text

KEPT_WALKS = 32  # studies whose replayed trees are kept in memory (the most recently read)


class Walks:
    """The replayed trees of the studies read last."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._kept: OrderedDict[tuple, tuple[dict, dict, dict]] = OrderedDict()

    def walk(self, study: Study, start: Sandbox) -> tuple[dict[int, Any], dict[int, str]]:
        """Every node's state and words, from the study's start sandbox."""
        key = (study.id, study.game_version, study.seat, study.seed)
        with self._guard:
            kept = self._kept.get(key)
        states, words, made = (dict(kept[0]), dict(kept[1]), dict(kept[2])) if kept else ({ROOT: start.state}, {}, {})
        names = list(start.setup.names)
        for node in study.nodes[1:]:
            what = (node["parent"], node["move"], node["by"])
            if made.get(node["id"]) == what:
                continue
            if node["id"] in made:  # a node kept from a command that was not saved (a retry made another one):
                for later in [n for n in made if n >= node["id"]]:  # it and every node after it are walked again
                    del made[later], states[later], words[later]
            made[node["id"]] = what
            sandbox = replace(start, state=states[node["parent"]])
            sandbox.play(node["move"])
            states[node["id"]] = sandbox.state
            words[node["id"]] = (move_text(study.game, node["move"], names) if node["by"] == "user"
                                 else seen_text(sandbox, study.seat, names))
        with self._guard:
            self._kept[key] = (states, words, made)
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT_WALKS:
                self._kept.popitem(last=False)
        return states, words

    def clear(self) -> None:
        with self._guard:
            self._kept.clear()
