"""domain.games: the registry names every game, and loads a game's decider only when it is asked for."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

from domain.games import DECIDERS, KNOWN_GAMES, decider_for


def test_the_registry_lists_every_game_and_each_decider_is_its_own():
    assert isinstance(DECIDERS, Mapping)
    assert list(DECIDERS) == ["el-royale", "batallion", "small-battle", "four-virtues"]
    assert sorted(DECIDERS) == sorted(KNOWN_GAMES) and len(DECIDERS) == 4
    for game, decider in DECIDERS.items():
        assert decider.GAME == game and decider_for(game) is decider and game in DECIDERS
    assert "chess" not in DECIDERS and DECIDERS.get("chess") is None


def test_asking_for_one_game_loads_that_game_alone():
    code = ("import sys\nfrom domain.games import decider_for\ndecider_for('el-royale')\n"
            "print(' '.join(m for m in sys.modules if m.startswith('domain.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = set(done.stdout.split())
    assert "domain.el_royale" in loaded
    assert not loaded & {"domain.batallion", "domain.small_battle", "domain.four_virtues", "domain.tournament"}
