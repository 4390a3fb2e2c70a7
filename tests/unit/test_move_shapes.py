"""Each game's declared moves (GameSpec.codec.moves, domain/kit/moves.py) are what its codec parses and its projection
lists: the OpenAPI document types every move from the declaration, so a declaration that drifted from the parser would
document a move the server refuses (or hide one it takes)."""

from __future__ import annotations

import importlib
import random

import pytest

from domain.games import SPECS
from domain.kit.moves import MoveShape
from domain.rules import MalformedMove
from projections.viewers import Viewer

from tests.toy_game import register

from .test_registry_properties import play, tables

EXAMPLE = {"card": "2C", "cards": ["2C"], "int": 1, "text": "5", "ranks": list("23456789")}
WRONG = {"card": 5, "cards": "2C", "int": "one", "text": 5, "choice": "nowhere", "ranks": "2", "object": 5}


def specs():
    with register():
        return [SPECS[game] for game in SPECS]


SPEC_LIST = specs()
SHAPES = [(spec, shape) for spec in SPEC_LIST for shape in spec.codec.moves]


def example(field):
    if field.kind == "choice":
        return field.choices[-1]
    if field.kind == "object":
        return {f.name: example(f) for f in field.fields}
    return EXAMPLE[field.kind]


def raw(shape: MoveShape, skip: str | None = None, **given) -> dict:
    out = {"seat": 0, "type": shape.type}
    out.update({f.name: example(f) for f in shape.fields if f.name != skip})
    out.update(given)
    return out


@pytest.mark.parametrize("spec", SPEC_LIST, ids=lambda s: s.id)
def test_every_move_type_of_a_game_is_declared_once(spec):
    declared = [shape.type for shape in spec.codec.moves]
    assert sorted(declared) == sorted(spec.codec.move_types)


@pytest.mark.parametrize("spec", SPEC_LIST, ids=lambda s: s.id)
def test_a_declared_say_cites_the_clause_its_event_cites(spec):
    say = next(shape for shape in spec.codec.moves if shape.type == "say")
    assert say.clause == spec.decider.clause_of({"type": "said", "seat": 0, "text": "hi"})


@pytest.mark.parametrize("spec,shape", SHAPES, ids=lambda x: getattr(x, "id", None) or getattr(x, "type", None))
def test_a_move_with_its_declared_fields_is_well_formed(spec, shape):
    spec.codec.parse_move(raw(shape), 2)


@pytest.mark.parametrize("spec,shape", SHAPES, ids=lambda x: getattr(x, "id", None) or getattr(x, "type", None))
def test_a_required_field_left_out_or_of_the_wrong_kind_is_refused_and_an_optional_one_may_be_left_out(spec, shape):
    for field in shape.fields:
        if field.required:
            with pytest.raises(MalformedMove):
                spec.codec.parse_move(raw(shape, skip=field.name), 2)
        else:
            spec.codec.parse_move(raw(shape, skip=field.name), 2)
        with pytest.raises(MalformedMove):
            spec.codec.parse_move(raw(shape, **{field.name: WRONG[field.kind]}), 2)


@pytest.mark.parametrize("spec", SPEC_LIST, ids=lambda s: s.id)
def test_a_seats_legal_move_entries_hold_only_declared_fields_and_summary_keys(spec):
    shapes = {shape.type: shape for shape in spec.codec.moves}
    projection = importlib.import_module(spec.projection)
    seen = set()
    with register():
        for options, players in tables(spec.id)[:3]:
            _, _, _, states, _ = play(spec.decider, options, players, "ab" * 16, random.Random(7), limit=200)
            for state in states:
                for seat in range(len(players)):
                    for entry in projection.table(state, Viewer("seat", seat)).get("legal_moves") or []:
                        shape = shapes[entry["type"]]
                        allowed = {"type"} | {f.name for f in shape.fields} | {f.name for f in shape.summary}
                        assert set(entry) <= allowed, (entry, allowed)
                        seen.add(entry["type"])
    assert seen, "no legal move listed"


def summary_keys_declared() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for spec in SPEC_LIST:
        for shape in spec.codec.moves:
            if shape.summary:
                out.setdefault(shape.type, set()).update(f.name for f in shape.summary)
    return out


def test_the_bots_summary_keys_are_the_declared_ones():
    """bots/ imports nothing of the engine, so bots/base.py keeps its own copy of the summary keys: held here to the
    games' declarations (a game that adds a summary must tell the bots)."""
    from bots.base import SUMMARY_KEYS

    assert {kind: set(keys) for kind, keys in SUMMARY_KEYS.items()} == summary_keys_declared()


def test_the_example_bots_summary_keys_are_the_declared_ones():
    """docs/examples/bot.py, written from the document alone, fills exactly the declared summaries."""
    import runpy
    from pathlib import Path

    example = runpy.run_path(str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "bot.py"))
    assert {kind: set(keys) for kind, keys in example["SUMMARY_KEYS"].items()} == summary_keys_declared()
    assert set(example["SUMMARIES"]) == set(summary_keys_declared())
