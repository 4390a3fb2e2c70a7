"""The study aggregate (issue 27 parts 3 and 5, issue 36 part 7, docs/studies.md): a tree of "what if" variations
played from a position of a recorded game, in a sandbox that is never part of that game, and the comments attached to
its nodes.

It records only: where the study starts (the game, its store version, the seat whose knowledge it uses, the seed that
samples the hidden cards and the sandbox's chance, whether the user plays every seat), each node of the tree (its
parent and the move that leads to it, record form, cards as strings, with who made it), and each comment on a node.
The tree is a fold of those events: node 0 is the start; a node's first child continues its line, any other child
is a branch (a variation), as in a lichess study chapter. The service (service/studies) decides.
"""

from __future__ import annotations

from eventsourcing.domain import Aggregate

ROOT = 0


class Study(Aggregate):
    """A tree of variations from one seat's knowledge of a game at one version, with comments on its nodes."""

    class Created(Aggregate.Created):
        game_id: str
        game: str
        game_version: int  # the game's store version the study starts from
        seat: int
        seed: str
        every_seat: bool
        by: str  # who opened it: "seat N", "referee" or "spectator"

    class Played(Aggregate.Event):
        """A move at the end of the study's one line (the events of studies stored before the tree)."""

        move: dict  # record form (the decider's format_move), seat included
        by: str  # "user" or "bot"

        def apply(self, study: "Study") -> None:
            study._add(len(study.nodes) - 1, self.move, self.by)

    class NodeAdded(Aggregate.Event):
        """A node: `move` played at node `parent` (a new line when the parent already has a child)."""

        parent: int
        move: dict  # record form (the decider's format_move), seat included
        by: str  # "user" or "bot"

        def apply(self, study: "Study") -> None:
            study._add(self.parent, self.move, self.by)

    class Commented(Aggregate.Event):
        at: int  # the node (0 the start); in a study of one line, node k is the position after its k-th move
        author: str  # "seat N" or "referee"
        text: str

        def apply(self, study: "Study") -> None:
            study.comments.append({"at": self.at, "author": self.author, "text": self.text})

    def __init__(self, game_id: str, game: str, game_version: int, seat: int, seed: str, every_seat: bool, by: str):
        self.game_id = game_id
        self.game = game
        self.game_version = game_version
        self.seat = seat
        self.seed = seed
        self.every_seat = every_seat
        self.by = by
        self.nodes: list[dict] = [{"id": ROOT, "parent": None, "move": None, "by": None, "ply": 0, "children": []}]
        self.comments: list[dict] = []

    def _add(self, parent: int, move: dict, by: str) -> None:
        node = {"id": len(self.nodes), "parent": parent, "move": dict(move), "by": by,
                "ply": self.nodes[parent]["ply"] + 1, "children": []}
        self.nodes.append(node)
        self.nodes[parent]["children"].append(node["id"])

    # -- commands (each already decided by the service: a legal move, a node of the tree, a clean text) --------

    def add_node(self, parent: int, move: dict, by: str) -> int:
        """A node: `move` (judged legal at `parent` by the game's decider) played at node `parent`; returns its id."""
        self.trigger_event(Study.NodeAdded, parent=parent, move=dict(move), by=by)
        return len(self.nodes) - 1

    def comment(self, at: int, author: str, text: str) -> None:
        """A comment on node `at` (already checked: a node of the tree, plain text, short)."""
        self.trigger_event(Study.Commented, at=at, author=author, text=text)

    # -- reading the tree ----------------------------------------------------------------------------------

    def has(self, node: object) -> bool:
        return isinstance(node, int) and not isinstance(node, bool) and 0 <= node < len(self.nodes)

    def path(self, node: int) -> list[int]:
        """The nodes from the start to `node`, both included."""
        out = [node]
        while self.nodes[out[-1]]["parent"] is not None:
            out.append(self.nodes[out[-1]]["parent"])
        return out[::-1]

    def line_end(self, node: int) -> int:
        """The end of the line through `node`: its first child, that child's first child, and so on."""
        while self.nodes[node]["children"]:
            node = self.nodes[node]["children"][0]
        return node

    def child_with(self, parent: int, move: dict) -> int | None:
        """The child of `parent` reached by `move` (record form), if the tree has it already."""
        return next((c for c in self.nodes[parent]["children"] if self.nodes[c]["move"] == move), None)
