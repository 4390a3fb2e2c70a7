"""A witness put together: its cosigner key, the logs it knows and its recorded state; `add_checkpoint(body)` is the
whole add-checkpoint call (read the request, decide inside the store's atomic step, answer)."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Callable, Mapping

from service.evidence.cosignatures import Cosigner

from .decide import KnownLog, decide
from .key_file import load_or_create
from .protocol import Answer, Refusal, read_request
from .state import StateStore

log = logging.getLogger("arbiter.witness")


class Witness:
    """One witness: answers add-checkpoint requests, one log at a time."""

    def __init__(self, cosigner: Cosigner, logs: Mapping[str, KnownLog], state: StateStore,
                 clock: Callable[[], float] = time.time):
        self.cosigner, self.logs, self.state, self.clock = cosigner, dict(logs), state, clock

    @classmethod
    def open(cls, key_file: str | Path, name: str, state_file: str | Path, logs: Mapping[str, KnownLog]) -> "Witness":
        """The witness of a key file (created on first start, with its state file) and a state file; raises
        WitnessKeyError or WitnessStateError naming what is wrong."""
        cosigner, created = load_or_create(key_file, name)
        state = StateStore(state_file, cosigner.verifier.text, create=created)  # a new key starts a new memory
        return cls(cosigner, logs, state)

    @property
    def verifier_key(self) -> str:
        """The witness's cosigner verifier key, `<name>+<id>+<base64>` (what logs and auditors configure)."""
        return self.cosigner.verifier.text

    def add_checkpoint(self, body: bytes) -> Answer:
        """The answer to one add-checkpoint request body."""
        try:
            request = read_request(body)
        except Refusal as e:
            return Answer(400, f"{e}\n")
        known = self.logs.get(request.origin)
        if known is None:  # nothing to read or record: answered without the store's lock
            return decide(None, None, request, self.cosigner, 0).answer
        decision = self.state.update(request.origin, lambda recorded: decide(known, recorded, request, self.cosigner,
                                                                             int(self.clock())), body)
        if decision.evidence:
            log.warning("arbiter witness: %s (the request is kept in %s)", decision.evidence, self.state.path)
        return decision.answer
