"""A C2SP tlog-witness (https://c2sp.org/tlog-witness): the domain-free part of `arbiter witness`.

protocol: the add-checkpoint request read and the answer's shape; decide: the pure decision (known log, recorded
state, request) -> (answer, new state); state: the recorded sizes and roots, durable and atomic (SQLite); logs: which
logs the witness trusts; key_file: the witness's own Ed25519 key; witness: the three put together (what the HTTP app
calls)."""
