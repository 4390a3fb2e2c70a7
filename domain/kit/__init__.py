"""The game kit: what every game's decider package repeats, written once as small parts a game composes.

- `state`: a State of immutable fields (clone, equality), its fold by one small function per event type, snapshots.
- `codec`: cards, record moves and stored events at the edges (card lists, `say`, the full pack), and `Codec`, the
  one declaration of them a game's spec carries (domain/spec.py).
- `moves`: each move type declared (meaning, clause, fields, legal-move summary keys): what the OpenAPI document types.
- `decider`: the shape of `step` (one judge of legality, then only applying), `decide` from it, the set-up's checks.

A game package holds only what differs: its clauses, its events, its moves, its set-up (docs/architecture.md, "Adding
a game"). The kit is pure like the rest of domain/: no I/O, nothing above the domain.
"""
