"""Study use cases (issue 27 parts 3 and 5, docs/studies.md): open a study at a version of a game for one seat,
play its variation, comment on its positions, read it. Studies are stored as `domain.study.Study` aggregates in the
games' store (the Referee application); a study's id is its permalink.

Who may: open or read a study of a finished game, anyone who may watch it (a seat only for its own seat); of a game
still on, only its referee. Play a variation's move: whoever may open it. Comment: a seat of the game (its token)
once the game is over, or the referee. Nothing here reads the recorded game's hidden cards into what is shown: the
sandbox is sampled from the seat's knowledge (service.studies.sandbox).
"""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import replace
from typing import Any, Callable
from uuid import UUID

from domain.analysis import NotAnalysable, analysis_of
from domain.games import spec_for
from domain.records import parse
from domain.study import ROOT, Study
from projections.viewers import Viewer

from service.access import Access, parse_game_id, permitted_seats
from service.errors import BadInput, Conflict, Forbidden, IllegalMove, NotFound
from service.store.application import Store
from service.store.unit_of_work import UnitOfWork

from .commands import StartStudy
from .sandbox import MAX_BOT_MOVES, BadVariationMove, Sandbox, knowledge_at, open_sandbox, replay
from .walks import Walks

MAX_COMMENT = 500
KEPT_STARTS = 256  # study starts kept in memory (each a decider state's dump)
MAX_NODES = 5000  # moves in all the lines of one study, bots' included
LABEL = "Variation: played in a sandbox from what this seat knew; not part of the recorded game"


def parse_study_id(study_id: Any) -> UUID:
    try:
        return UUID(str(study_id))
    except ValueError:
        raise NotFound(f"no study with id {str(study_id)[:60]!r}") from None


def _author(viewer: Viewer) -> str:
    return "referee" if viewer.is_referee else (f"seat {viewer.seat}" if viewer.seat is not None else "spectator")


def clean_comment(text: Any) -> str:
    """A comment's text: plain text of 1 to 500 characters, no control characters but new lines; raises BadInput."""
    if not isinstance(text, str):
        raise BadInput("text: a comment is a string", field="text")
    text = text.strip()
    if not text:
        raise BadInput("text: a comment cannot be empty", field="text")
    if len(text) > MAX_COMMENT:
        raise BadInput(f"text: a comment has at most {MAX_COMMENT} characters, this one has {len(text)}", field="text")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co") and c not in "\n\t" for c in text):
        raise BadInput("text: a comment is plain text: no control or format characters", field="text")
    return text


class Studies:
    """Studies over the games' store."""

    def __init__(self, app: Store, access: Access):
        self.app = app
        self.access = access
        self._guard = threading.Lock()
        self._starts: dict[tuple, tuple] = {}  # (game id, version, seat, seed) -> (sandbox, its state's dump)
        self._walks = Walks()

    # -- access --------------------------------------------------------------------------

    def _reader(self, game_id: Any, token: str | None, seat: int | None) -> tuple[Viewer, Any]:
        """Who may open (or read, or extend) a study of this game for `seat`; raises 401/403/404."""
        gid = parse_game_id(game_id)
        viewer = self.access.viewer(gid, token)  # a held game's spectators are refused here
        game = self.app.game(gid)
        if viewer.is_referee:
            return viewer, game
        over = game.outcome.is_over
        if not over or not self.access.end_shown(gid, viewer, over):
            raise Forbidden("a game still on (or a duplicate board still played elsewhere) is studied by its referee "
                            "alone; its seats and spectators may study it once it is over")
        if viewer.seat is not None and seat is not None and viewer.seat != seat:
            raise Forbidden(f"seat {viewer.seat}'s token studies seat {viewer.seat}'s knowledge, not seat {seat}'s",
                            field="seat")
        return viewer, game

    def seats(self, game_id: Any, token: str | None) -> list[int]:
        """The seats this caller may open a study for now, by the rules of `open` (the replay page links these); []
        for a game that offers no study. Raises 401/403/404 as the access does."""
        gid = parse_game_id(game_id)
        self.access.viewer(gid, token)
        game = self.app.game(gid)
        try:
            analysis_of(spec_for(game.game))
        except NotAnalysable:
            return []
        return permitted_seats(game, lambda seat: self._reader(gid, token, seat))

    def _load(self, sid: UUID) -> Study:
        return self.app.aggregate_of(Study, sid, "study")

    def _command(self, sid: UUID, decide: Callable[[UnitOfWork[Study]], dict]) -> dict:
        """Run `decide` on the study through the store's unit of work."""
        return self.app.command(sid, decide, load=self._load, what=f"study {sid}")

    # -- the sandbox -----------------------------------------------------------------------

    def _sandbox(self, game_id: str, version: int, seat: int, seed: str) -> Sandbox:
        """The sandbox at a study's start. The game is read as it was at `version` (a later rewind does not move a
        study's start); its record goes to projections.knowledge only, which keeps what the seat saw. The start is a
        pure function of (game, version, seat, seed), so it is kept (as the decider's dump) for the next read."""
        key = (game_id, version, seat, seed)
        with self._guard:
            kept = self._starts.get(key)
        if kept is None:
            game = self.app.game(parse_game_id(game_id), version)
            record = parse(game.to_record(reveal_seed=True))
            sandbox = open_sandbox(record.game, record.setup, seat, knowledge_at(record, seat), seed)
            with self._guard:
                self._starts[key] = (sandbox, spec_for(record.game).codec.dump_state(sandbox.state))
                while len(self._starts) > KEPT_STARTS:
                    self._starts.pop(next(iter(self._starts)))
            return sandbox
        sandbox, dump = kept
        return replace(sandbox, state=spec_for(sandbox.game).codec.load_state(dump))

    def forget_starts(self) -> None:
        """Drop the study starts kept in memory (the next read samples from the store again)."""
        with self._guard:
            self._starts.clear()
        self._walks.clear()

    def _walk(self, study: Study) -> tuple[Sandbox, dict[int, Any], dict[int, str]]:
        """The start's sandbox, and every node's state and words (service.studies.walks)."""
        start = self._sandbox(study.game_id, study.game_version, study.seat, study.seed)
        return (start, *self._walks.walk(study, start))

    def _at(self, study: Study, node: int) -> Sandbox:
        """The sandbox at a node: the start, then the moves of the path that leads there."""
        sandbox = self._sandbox(study.game_id, study.game_version, study.seat, study.seed)
        return replay(sandbox, [study.nodes[i] for i in study.path(node)[1:]])

    # -- use cases ---------------------------------------------------------------------------

    def open(self, token: str | None, command: StartStudy) -> dict:
        """Open a study (as the command checked it): the study, whose id is its permalink."""
        version, seat, seed, every_seat = command.version, command.seat, command.seed, command.every_seat
        viewer, game = self._reader(command.game_id, token, seat if isinstance(seat, int) else None)
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= game.version:
            raise BadInput(f"version: game {game.id} has versions 1..{game.version}, got {version!r}", field="version")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.setup.n:
            raise BadInput(f"seat: this game has seats 0..{game.setup.n - 1}, got {seat!r}", field="seat")
        try:
            sandbox = self._sandbox(str(game.id), version, seat, seed)
        except NotAnalysable as e:
            raise BadInput(f"{spec_for(game.game).title} offers no study: its spec declares no sampler of hidden "
                           f"cards ({e})") from None
        study = Study(game_id=str(game.id), game=game.game, game_version=version, seat=seat, seed=seed,
                      every_seat=every_seat, by=_author(viewer))
        node = self._bots_answer(study, sandbox, ROOT)
        self.app.save(study)
        return self._shown(study, node, viewer)

    def game_of(self, study_id: Any) -> str:
        """The id of the game a study comes from (public: a study's id says nothing more)."""
        return self._load(parse_study_id(study_id)).game_id

    def read(self, study_id: Any, token: str | None, node: Any = None) -> dict:
        """A study at one of its nodes (its permalink), else at the end of its main line; the reader must be allowed
        to study its game."""
        study = self._load(parse_study_id(study_id))
        viewer, _ = self._reader(study.game_id, token, None)
        return self._shown(study, study.line_end(ROOT) if node is None else _node(study, node), viewer)

    def play(self, study_id: Any, token: str | None, raw: Any, at: Any = None) -> dict:
        """A move at node `at` (else at the end of the main line), then the bots' answers unless the user plays
        every seat. A move the node already has leads to that child; another one starts a new branch there."""
        sid = parse_study_id(study_id)
        if not isinstance(raw, dict):
            raise BadInput("move: a move is an object with type (and seat, when the study plays every seat)",
                           field="move")

        def decide(uow: UnitOfWork[Study]) -> dict:
            study = uow.aggregate
            viewer, _ = self._reader(study.game_id, token, None)
            node = study.line_end(ROOT) if at is None else _node(study, at)
            sandbox = self._at(study, node)
            if study.every_seat:
                to_act = sandbox.to_act()
                seat = to_act[0] if len(to_act) == 1 else None
            else:
                seat = study.seat
                if raw.get("seat", seat) != seat:
                    raise BadInput(f"move.seat: this study plays seat {seat}; the bots play the others "
                                   f"(open it with every_seat to play them all)", field="move.seat")
            try:
                move = sandbox.play(raw, seat)
            except BadVariationMove as e:
                raise IllegalMove(e.reason, field="move", rule=e.clause) from None
            node = self._grow(study, node, move, "user")
            return self._shown(study, self._bots_answer(study, sandbox, node), viewer)

        return self._command(sid, decide)

    def _grow(self, study: Study, parent: int, move: dict, by: str) -> int:
        """The child of `parent` that `move` leads to: the tree's own, else a new node (a new branch)."""
        child = study.child_with(parent, move)
        if child is not None:
            return child
        if len(study.nodes) > MAX_NODES:
            raise Conflict(f"a study has at most {MAX_NODES} moves in all its lines")
        return study.add_node(parent, move, by)

    def _bots_answer(self, study: Study, sandbox: Sandbox, node: int) -> int:
        """The bots play the other seats from `node` until the study's seat is to act (or the game is over); returns
        the node reached. A bot's move depends on the position and the ply alone, so an answer the tree holds
        already is followed, not added twice."""
        if study.every_seat:
            return node
        for _ in range(MAX_BOT_MOVES):
            if sandbox.over() or sandbox.seat in sandbox.to_act():
                break
            node = self._grow(study, node, sandbox.bot_move(study.nodes[node]["ply"]), "bot")
        return node

    def comment(self, study_id: Any, token: str | None, at: Any, text: Any) -> dict:
        """A comment on a node of the study, by a seat of the game (once it is over) or its referee."""
        sid = parse_study_id(study_id)
        text = clean_comment(text)

        def decide(uow: UnitOfWork[Study]) -> dict:
            study = uow.aggregate
            if token is None:
                raise Forbidden("a comment is signed: give a seat's token for this game, or the referee's")
            viewer, _ = self._reader(study.game_id, token, None)
            if not _may_comment(viewer):
                raise Forbidden("a comment is signed by a seat of the game or its referee; a spectator reads them")
            node = _node(study, at)
            study.comment(node, _author(viewer), text)
            return self._shown(study, node, viewer)

        return self._command(sid, decide)

    # -- what is shown -------------------------------------------------------------------------

    def _shown(self, study: Study, node: int, viewer: Viewer) -> dict:
        start, states, words = self._walk(study)
        sandbox = replace(start, state=states[node])
        outcome = sandbox.decider.outcome(sandbox.state)
        to_act = list(sandbox.to_act()) if not outcome.is_over else []
        shown_seat = to_act[0] if study.every_seat and len(to_act) == 1 else study.seat
        nodes = []
        for n in study.nodes:  # a bot's move: its kind and seat; what the study's seat saw of it is its `text`
            move = n["move"] if n["by"] != "bot" or n["move"] is None else {k: n["move"][k] for k in ("type", "seat")}
            nodes.append({"id": n["id"], "parent": n["parent"], "ply": n["ply"], "move": move, "by": n["by"],
                          "text": words.get(n["id"]), "children": list(n["children"]), "comments": []})
        for c in study.comments:
            nodes[c["at"]]["comments"].append(dict(c))
        line = study.path(study.line_end(node))
        positions = [{"at": i, **{k: nodes[i][k] for k in ("move", "by", "comments")},
                      **({"text": nodes[i]["text"]} if i != ROOT else {})} for i in line]
        base = f"/studies/{study.id}"
        return {"id": str(study.id), "permalink": base, "node": node, "node_permalink": f"{base}/nodes/{node}",
                "label": LABEL, "variation": True, "game_id": study.game_id, "game": study.game,
                "title": spec_for(study.game).title, "version": study.game_version, "seat": study.seat,
                "players": list(sandbox.setup.names), "teams": [p.get("team") for p in sandbox.setup.players()],
                "options": dict(sandbox.setup.options()), "seed": study.seed, "every_seat": study.every_seat,
                "by": study.by, "nodes": nodes, "path": study.path(node), "line": line, "positions": positions,
                "may_comment": _may_comment(viewer), "to_act": to_act, "over": outcome.is_over,
                "result": outcome.result, "winner": outcome.winner_json(),
                "view": {"seat": shown_seat, "table": sandbox.view(shown_seat)}}


def _may_comment(viewer: Viewer) -> bool:
    """A comment is signed: by a seat of the game or its referee, never by a spectator."""
    return viewer.is_referee or viewer.seat is not None


def _node(study: Study, node: Any) -> int:
    """A node of the study's tree, or BadInput naming the nodes it has."""
    if not study.has(node):
        raise BadInput(f"node: this study's positions are its nodes 0..{len(study.nodes) - 1} (0 is its start), "
                       f"got {node!r}", field="node")
    return node
