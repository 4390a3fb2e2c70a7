"""json_limits.screened: a JSON text it passes keeps every bound `check` enforces (so `replay` may skip the walk);
each kind of text outside the bounds is not passed."""

from __future__ import annotations

import json
import re
from itertools import accumulate

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import json_limits

values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**60, max_value=2**60) | st.text(max_size=8)
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=40)


def deep(levels: int):
    doc = 1
    for _ in range(levels):
        doc = [doc]
    return doc


@given(values)
def test_a_text_that_passes_the_screen_keeps_every_bound(doc):
    text = json.dumps(doc)
    if json_limits.screened(text):
        json_limits.check(json.loads(text))  # raises LimitError if the screen let a bad document through


@pytest.mark.parametrize("doc", [{"n": 2**53}, {"n": 1.5}, {"n": 1e400}, {"t": "a\x00b"}, {"t": "\ud800"},
                                 deep(json_limits.MAX_DEPTH + 1)])
def test_a_text_outside_the_bounds_does_not_pass_the_screen(doc):
    assert not json_limits.screened(json.dumps(doc))


def test_nan_and_infinity_do_not_pass_the_screen():
    assert not json_limits.screened('{"a": NaN}') and not json_limits.screened('[Infinity]')


def test_a_record_passes_the_screen_with_its_strings_holding_anything_else():
    record = {"format": "arbiter.record/1", "players": [{"name": 'e.E "quoted" [{ NaN 12345678901234567'}],
              "moves": [{"seat": 0, "type": "say", "text": "]]]]"}], "depth": deep(json_limits.MAX_DEPTH - 1)}
    assert json_limits.screened(json.dumps(record))


# The screen as it was first written (one regular expression each): the string-operation screen must answer alike.
_OLD_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_OLD_NUMBER = re.compile(r"\d{15,}|[.eE]|NaN|Infinity")


def _old_screened(text: str) -> bool:
    if "\x00" in text or json_limits._SUSPECT_ESCAPE.search(text):
        return False
    bare = _OLD_STRING.sub("", text)
    if _OLD_NUMBER.search(bare):
        return False
    brackets = json_limits._BRACKET.findall(bare)
    return not brackets or max(accumulate(map(json_limits._DEPTH.__getitem__, brackets))) <= json_limits.MAX_DEPTH


nested = st.recursive(values, lambda inner: st.lists(inner, min_size=1, max_size=2)
                      | st.dictionaries(st.text(max_size=3), inner, min_size=1, max_size=2), max_leaves=60)


@given(nested, st.booleans(), st.sampled_from([None, 1]), st.integers(min_value=0, max_value=40))
def test_the_screen_answers_as_the_regular_expressions_did(doc, ascii_only, indent, depth):
    text = json.dumps(deep(depth) if depth > 25 else doc, ensure_ascii=ascii_only, indent=indent)
    assert json_limits.screened(text) == _old_screened(text)


@pytest.mark.parametrize("levels", range(json_limits.MAX_DEPTH - 3, json_limits.MAX_DEPTH + 3))
@pytest.mark.parametrize("shape", ["[", "{", "mixed"])
def test_the_screen_counts_the_depth_exactly(levels, shape):
    doc: object = 1
    for i in range(levels - 1):
        kind = shape if shape != "mixed" else "[{"[i % 2]
        doc = [doc] if kind == "[" else {"k": doc}
    doc = {"moves": [doc]}
    text = json.dumps(doc)
    assert json_limits.screened(text) == (levels + 1 <= json_limits.MAX_DEPTH) == _old_screened(text)
