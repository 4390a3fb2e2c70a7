"""The OpenAPI document is the whole contract: a client generated from it by a tool nobody here wrote
(`openapi-python-client`, tests/generated_client.py) plays a full game of every registered game, the toy game
included, with every seat, through that client alone: typed views, typed legal moves, typed moves sent with an
idempotency key, the stream read, a dispute filed and ruled. The bots choose the moves from the typed view.

Measured (2 cores under a load of 13): generating the client 15.6 s, the five games 8 s (311 moves, 1,005 calls of
the generated client: El Royale 100 moves, Batallion 37, Small Battle 20, The Four Virtues 148, High Card 6).

The client talks to the app in process (httpx's WSGI transport, given to the generated client as an httpx argument);
tests/e2e/test_example_bot.py runs the documented example bot on the same kind of client against a live server.
"""

from __future__ import annotations

import json
import random
import uuid
from importlib import import_module

import httpx
import pytest
from openapi_schema_validator import OAS30Validator

from bots import SeatView, make_bot
from bots.summaries import random_move
from domain.games import SPECS

from api import create_app
from tests.generated_client import generate, pascal, sse_messages, typed_move
from tests.toy_game import register

BASE = "http://arbiter.test"
MOVE_LIMIT = 1500  # far beyond any of these games; a game that does not end is a failure


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app (High Card registered too) and the client generated from the document it serves."""
    with register():
        app = create_app({"DATABASE_URL": "memory://", "STREAM_SECONDS": 1})
        transport = httpx.WSGITransport(app=app)
        document = httpx.Client(transport=transport, base_url=BASE).get("/api/v1/openapi.json").json()
        client = generate(document, tmp_path_factory.mktemp("generated"))
        yield app, transport, client, document
        app.extensions["arbiter"].app.close()


def anonymous(client, transport):
    return client.Client(base_url=BASE, httpx_args={"transport": transport}, raise_on_unexpected_status=True)


def bearer(client, transport, token: str):
    return client.AuthenticatedClient(base_url=BASE, token=token, httpx_args={"transport": transport},
                                      raise_on_unexpected_status=True)


def legal_classes(client) -> tuple[type, ...]:
    """Every game's generated legal-move classes (a view's table names no game: an entry is the first that fits)."""
    models = import_module(f"{client.__name__}.models")
    return tuple(getattr(models, name) for name in dir(models) if name.endswith("LegalMove") and name.startswith(
        tuple(pascal(g) for g in SPECS)))


@pytest.mark.parametrize("game", ["el-royale", "batallion", "small-battle", "four-virtues", "high-card"])
def test_a_generated_client_alone_plays_a_whole_game_with_every_seat_reads_the_stream_and_gets_a_ruling(served, game):
    app, transport, client, document = served
    view_schema = OAS30Validator({"$ref": "#/components/schemas/View", "components": document["components"]})
    models = import_module(f"{client.__name__}.models")
    games = import_module(f"{client.__name__}.api.games")
    call = {name: import_module(f"{games.__name__}.{name}") for name in (
        "post_api_v1_games", "get_api_v1_games_game_id_view", "post_api_v1_games_game_id_moves",
        "post_api_v1_games_game_id_disputes", "post_api_v1_games_game_id_disputes_number_ruling",
        "get_api_v1_games_game_id")}
    stream = import_module(f"{client.__name__}.api.stream.get_api_v1_games_game_id_stream")
    with register():
        spec = SPECS[game]
        players = [models.Player(name=f"P{i}") for i in range(spec.seats_for({}).low)]
        created = call["post_api_v1_games"].sync(client=anonymous(client, transport),
                                                 body=models.CreateGame(game=game, players=players, seed="ab" * 16))
        assert isinstance(created, models.Created), created
        seats = [bearer(client, transport, s.token) for s in created.seats]
        referee = bearer(client, transport, created.referee_token)
        rng = random.Random(game)
        bots = [make_bot("heuristic", game, seat, random.Random(seat), heuristic=spec.bot) for seat in range(len(seats))]
        typed_kinds, moves, disputed = legal_classes(client), 0, None
        while moves < MOVE_LIMIT:
            answers = [call["get_api_v1_games_game_id_view"].sync_detailed(client=s, game_id=created.id) for s in seats]
            views = [answer.parsed for answer in answers]
            assert all(isinstance(v, models.View) for v in views), views
            for answer in answers:  # the document holds for every game's views, not only the fuzzer's El Royale
                view_schema.validate(json.loads(answer.content))
            if views[0].status.value == "finished":
                break
            acting = [(seat, v) for seat, v in enumerate(views) if v.table.legal_moves]
            assert acting, f"a game in progress has a seat to act ({game}, after {moves} moves)"
            seat, view = rng.choice(acting)
            assert all(isinstance(entry, typed_kinds) for entry in view.table.legal_moves)
            move = bots[seat].choose(SeatView.from_http(view.to_dict()))
            answer = call["post_api_v1_games_game_id_moves"].sync_detailed(
                client=seats[seat], game_id=created.id, body=typed_move(client, game, move),
                idempotency_key=uuid.uuid4().hex)
            assert answer.status_code == 200, (move, answer.content[:300])
            moves += 1
            if disputed is None:  # the first move is disputed and the referee rules on it while the game goes on
                disputed = answer.parsed.events[0].version
                filed = call["post_api_v1_games_game_id_disputes"].sync(
                    client=seats[seat], game_id=created.id, body=models.DisputeRequest(version=disputed, claim="too fast"))
                assert isinstance(filed, models.Dispute), filed
                ruled = call["post_api_v1_games_game_id_disputes_number_ruling"].sync(
                    client=referee, game_id=created.id, number=filed.number,
                    body=models.RulingRequest(decision=models.RulingRequestDecision.REJECTED, note="it stands"))
                assert isinstance(ruled, models.Dispute) and ruled.ruling is not None, ruled
        assert moves < MOVE_LIMIT, f"{game} did not end in {MOVE_LIMIT} moves"
        public = call["get_api_v1_games_game_id"].sync(client=anonymous(client, transport), game_id=created.id)
        assert public.status.value == "finished" and public.seed
        text = stream.sync(client=seats[0], game_id=created.id)
        assert isinstance(text, str), text
        messages = sse_messages(text)
        kinds = [m.get("event") for m in messages]
        assert kinds[0] == "created" and kinds[-1] == "seed_revealed"
        assert {"dispute_filed", "dispute_ruled"} <= set(kinds)
        assert [int(m["id"]) for m in messages] == sorted(int(m["id"]) for m in messages)
        if spec.analysis is not None:  # a "what if" study of the finished game, its move typed too
            play_study(client, seats[0], created.id, disputed, game, rng)


def play_study(client, seat, game_id: str, version: int, game: str, rng) -> None:
    """Open a study at `version` playing every seat, and play one typed study move the sandbox's view lists."""
    models = import_module(f"{client.__name__}.models")
    studies = import_module(f"{client.__name__}.api.studies")
    opened = import_module(f"{studies.__name__}.post_api_v1_games_game_id_studies").sync(
        client=seat, game_id=game_id, body=models.OpenStudy(version=version, seat=0, every_seat=True, seed="cd" * 8))
    assert isinstance(opened, models.StudyView), opened
    shown = opened.view.to_dict()
    view = SeatView(game, shown["seat"], shown["table"])
    move = random_move(view, rng.choice(view.legal_moves), rng)
    played = import_module(f"{studies.__name__}.post_api_v1_studies_study_id_moves").sync(
        client=seat, study_id=opened.id, body=models.PlayStudyMove(move=typed_move(client, game, move, "StudyMove")))
    assert isinstance(played, models.StudyView) and len(played.positions) >= 2, played
