"""The OpenAPI document says what a client needs and nothing it cannot use (issue 38): valid OpenAPI 3.0, every
operation's tokens declared, the idempotency header, every game's moves typed from its declaration, content types as
served. What the routes really answer is held by the fuzzer (tests/integration/test_api_schema.py,
test_api_fuzz_stores.py) and a generated client (tests/integration/test_generated_client.py)."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate

from api import create_app
from api.http.openapi import ANYONE, SCHEMES, WHO
from domain.games import SPECS
from tests.toy_game import register

PREFIX = "/api/v1"


@pytest.fixture(scope="module")
def document():
    with register():
        app = create_app({"DATABASE_URL": "memory://"})
        return app.test_client().get(f"{PREFIX}/openapi.json").get_json()


def operations(document):
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method != "parameters" and path != f"{PREFIX}/openapi.json":
                yield f"{method.upper()} {path.removeprefix(PREFIX)}", operation


def test_the_document_is_valid_openapi(document):
    validate(document)


def test_every_operation_declares_the_tokens_it_takes(document):
    assert set(document["components"]["securitySchemes"]) == set(SCHEMES)
    for key, operation in operations(document):
        assert key in WHO, f"{key}: no row in api/http/openapi.py WHO (which tokens does it take?)"
        expected = [{token: []} if token else {} for token in WHO[key]]
        assert operation["security"] == expected, key
    assert set(WHO) == {key for key, _ in operations(document)}, "a WHO row for an operation the app does not serve"


def test_an_operation_that_takes_a_token_declares_401_and_one_for_anyone_does_not_require_one(document):
    for key, operation in operations(document):
        if ANYONE not in WHO[key]:
            assert "401" in operation["responses"], key
        else:
            assert {} in operation["security"], key


def test_every_body_may_be_refused_before_the_route_as_malformed_or_too_large(document):
    for key, operation in operations(document):
        if key.startswith("POST"):
            assert {"400", "413"} <= set(operation["responses"]), key


def test_a_seats_writes_may_be_contended_or_rate_limited(document):
    for path in ("moves", "disputes", "name"):
        responses = document["paths"][f"{PREFIX}/games/{{game_id}}/{path}"]["post"]["responses"]
        assert {"409", "429"} <= set(responses), path
        assert "Retry-After" in responses["429"]["headers"]


def test_a_move_takes_the_idempotency_key_header(document):
    operation = document["paths"][f"{PREFIX}/games/{{game_id}}/moves"]["post"]
    assert [p["name"] for p in operation["parameters"] if p["in"] == "header"] == ["Idempotency-Key"]


@pytest.mark.parametrize("kind", ["Move", "StudyMove", "LegalMove"])
def test_every_move_of_every_game_has_its_own_schema_under_its_games_discriminated_union(document, kind):
    schemas = document["components"]["schemas"]
    with register():
        for game in SPECS:
            union = schemas["".join(p.capitalize() for p in game.split("-")) + kind]
            mapping = union["discriminator"]["mapping"]
            assert union["discriminator"]["propertyName"] == "type"
            assert set(mapping) == set(SPECS[game].codec.move_types)
            for shape in SPECS[game].codec.moves:
                schema = schemas[mapping[shape.type].rsplit("/", 1)[1]]
                assert schema["properties"]["type"]["enum"] == [shape.type]
                assert schema["x-clause"] == shape.clause
                for field in shape.fields:
                    assert field.clause in schema["properties"][field.name]["description"]
    body = {"Move": "Move", "StudyMove": "StudyMove"}.get(kind)
    if body:
        assert len(schemas[body]["anyOf"]) == len(SPECS) + 1  # the four games and High Card


def test_text_routes_and_the_stream_declare_what_they_serve(document):
    paths = document["paths"]
    for path in ("/log/checkpoint", "/log/key"):
        assert paths[PREFIX + path]["get"]["responses"]["200"]["content"] == {"text/plain": {"schema": {"type": "string"}}}
    tile = paths[f"{PREFIX}/log/tile/{{tile}}"]["get"]["responses"]["200"]
    assert tile["content"] == {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}
    assert "immutable" in tile["headers"]["Cache-Control"]["description"]
    stream = paths[f"{PREFIX}/games/{{game_id}}/stream"]["get"]["responses"]["200"]
    assert list(stream["content"]) == ["text/event-stream"]
    assert {"type": "string"}.items() <= stream["content"]["text/event-stream"]["schema"]["anyOf"][0].items()
    for kind in ("created", "seed_revealed", "dispute_filed", "dispute_ruled", "analysis_progress"):
        assert f"`{kind}`" in stream["description"]
    bundle = paths[f"{PREFIX}/tournaments/{{tournament_id}}/bundle"]["get"]["responses"]["200"]["content"]
    assert bundle["application/jsonl"]["schema"]["type"] == "string"


def test_a_receipt_to_check_is_typed(document):
    schema = document["components"]["schemas"]["ReceiptToCheck"]
    assert set(schema["required"]) == {"format", "game", "version", "head", "at", "key", "signature"}


def test_the_view_table_lists_typed_legal_moves(document):
    schemas = document["components"]["schemas"]
    assert schemas["View"]["properties"]["table"] == {"$ref": "#/components/schemas/GameTable"}
    items = schemas["GameTable"]["properties"]["legal_moves"]["items"]["anyOf"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in items} >= {"ElRoyaleLegalMove", "HighCardLegalMove"}
