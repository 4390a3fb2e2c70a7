"""arbiter's pure domain: cards, randomness, game rules (deciders) and the game aggregate."""

ENGINE_VERSION = "arbiter-rules/0.1.0"
