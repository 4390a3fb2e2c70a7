"""domain.games: the registry names every game by where its spec lives, and loads a game only when asked for."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

import pytest

from domain.games import DECIDERS, GAMES, SPECS, decider_for, spec_for
from domain.spec import GameSpec


def test_the_registry_lists_every_game_and_each_spec_and_decider_is_its_own():
    assert isinstance(DECIDERS, Mapping) and isinstance(SPECS, Mapping)
    assert list(SPECS) == list(DECIDERS) == list(GAMES) == ["el-royale", "batallion", "small-battle", "four-virtues"]
    for game, spec in SPECS.items():
        assert isinstance(spec, GameSpec) and spec.id == game and spec_for(game) is spec
        # who a game is, and its codec, are declared once, in its spec: the decider holds the rules alone
        assert not any(hasattr(spec.decider, name) for name in ("GAME", "TITLE", "PREFIX"))
        assert "say" in spec.codec.move_types and spec.codec.State is type(spec.decider.initial_state(
            spec.decider.configure(spec.example_options[0], [{"name": f"P{i}"} for i in range(spec.min_players)], None, None)))
        assert decider_for(game) is spec.decider is DECIDERS[game] and game in DECIDERS
    assert "chess" not in DECIDERS and DECIDERS.get("chess") is None
    with pytest.raises(KeyError, match="unknown game 'chess': expected one of el-royale, batallion"):
        decider_for("chess")


def test_asking_for_one_game_loads_that_game_alone():
    code = ("import sys\nfrom domain.games import decider_for\ndecider_for('el-royale')\n"
            "print(' '.join(m for m in sys.modules if m.startswith('domain.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(done.stdout.split())
    assert "domain.el_royale" in loaded and "domain.el_royale.spec" in loaded
    assert not loaded & {"domain.batallion", "domain.small_battle", "domain.four_virtues", "domain.tournament"}


def test_every_spec_s_options_and_seats_are_what_its_set_up_accepts():
    """The declaration and the set-up agree: each option's default is what configure records when it is left out,
    each choice is accepted, and the player ranges are the counts configure accepts for the options given."""
    for spec in SPECS.values():
        for options in spec.example_options:
            seats = spec.seats_for(options)
            for n in range(1, 10):
                players = [{"name": f"P{i}"} for i in range(n)]
                try:
                    spec.decider.configure(options, players, None, None)
                    accepted = True
                except Exception:
                    accepted = False
                assert accepted == (seats.low <= n <= seats.high), (spec.id, options, n)
        base = spec.seats[0]
        players = [{"name": f"P{i}"} for i in range(base.low)]
        plain = spec.decider.configure({}, players, None, None).options()
        for option in spec.options:
            if option.kind == "flags":
                for choice in option.choices:
                    given = {option.name: [choice.value]}
                    n = spec.seats_for(given).low
                    spec.decider.configure(given, [{"name": f"P{i}"} for i in range(n)], None, None)
            elif option.kind == "choice" and not option.note:
                assert plain.get(option.name) == option.default, (spec.id, option.name)
                for choice in option.choices:
                    spec.decider.configure({option.name: choice.value}, players, None, None)
            elif option.kind == "int":
                assert plain.get(option.name) == option.default, (spec.id, option.name)
                for value in (option.low, option.high):
                    if value is not None:
                        spec.decider.configure({option.name: value}, players, None, None)
            elif option.kind == "bool":
                assert plain.get(option.name, False) is option.default
                spec.decider.configure({option.name: True}, players, None, None)
