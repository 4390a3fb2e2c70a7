"""json_limits.screened: a JSON text it passes keeps every bound `check` enforces (so `replay` may skip the walk);
each kind of text outside the bounds is not passed."""

from __future__ import annotations

import json

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
