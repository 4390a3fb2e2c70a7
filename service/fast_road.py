"""Whether a replay may take a game's fast road (domain.spec.FastReplay, domain.records.fast_road): the process's
setting ARBITER_FAST_ROAD, "0" sending every move of every record to the decider's `step`, as live play does
(`arbiter replay --no-fast-road` sets it for its run and the processes it starts; docs/cli.md). Read here, at the
service's edge, because domain/ reads no environment."""

from __future__ import annotations

import os

SETTING = "ARBITER_FAST_ROAD"


def allowed() -> bool:
    """False when this process was told to judge every replay by the decider alone."""
    return os.environ.get(SETTING) != "0"
