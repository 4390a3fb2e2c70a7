"""A proof's size and its offline check, in both formats (docs/evidence.md, "The same proof in the standard format").

    .venv/bin/python -m bench.tlog_proof [--leaves 1000000] [--proofs 200] [--witnesses 3]

A tree of `--leaves` leaves (checkpoint-sized lines; the proved leaves are real signed checkpoint lines at their
place), a checkpoint signed by the log and cosigned by `--witnesses` witnesses, then for `--proofs` random leaves:
the bytes of the `arbiter.proof/1` bundle and of the C2SP tlog-proof, and the time of the whole offline check
(service.evidence.proof_check.check_file: reading, the leaf's and the receipt's signatures, the note's signatures,
the inclusion proof, a policy quorum of all but one witness) of each.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import statistics
import time
import uuid

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.evidence import merkle, receipts
from service.evidence.checkpoints import FORMAT
from service.evidence.cosignatures import Cosigner
from service.evidence.keys import ServerKey, canonical
from service.evidence.proof_check import check_file
from service.evidence.tlog_policy import from_witnesses
from service.evidence.tlog_proof import from_bundle
from service.evidence.tree_heads import TreeHead

ORIGIN = "arbiter.example.org/federation-2026"


def line(key: ServerKey, seq: int, game: uuid.UUID) -> bytes:
    return canonical(key.sign({"format": FORMAT, "seq": seq, "prev": "0" * 64, "game": str(game), "version": seq,
                               "head": hashlib.sha256(str(seq).encode()).hexdigest(), "reason": "every",
                               "at": "2026-11-29T06:00:00.000000+00:00", "attempts": 0, "attempts_head": ""}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--proofs", type=int, default=200)
    parser.add_argument("--witnesses", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(1)
    key, game = ServerKey.generate(), uuid.UUID(int=1)
    chosen = sorted(rng.sample(range(args.leaves), args.proofs))
    real = {i: line(key, i + 1, game) for i in chosen}
    filler = line(key, 1, game)
    hashes = merkle.MemoryHashes()
    start = time.perf_counter()
    for i in range(args.leaves):
        hashes.append_leaf(real.get(i) or filler + str(i).encode())
    print(f"a tree of {args.leaves:,} leaves in {time.perf_counter() - start:.1f} s")
    head = TreeHead(ORIGIN, args.leaves, merkle.tree_hash(args.leaves, hashes.read))
    witnesses = [Cosigner(f"witness{n}.example.net", Ed25519PrivateKey.generate()) for n in range(args.witnesses)]
    note = key.note_signer(ORIGIN).sign(head.text) + "".join(w.cosign(head.text).line for w in witnesses)
    policy = from_witnesses([w.verifier for w in witnesses], max(0, args.witnesses - 1))
    log_key = key.note_signer(ORIGIN).verifier
    sizes = {"arbiter.proof/1": [], "tlog-proof": []}
    times = {"arbiter.proof/1": [], "tlog-proof": []}
    for i in chosen:
        doc = json.loads(real[i])
        bundle = {"format": "arbiter.proof/1", "receipt": receipts.issue(key, game, doc["version"], doc["head"]),
                  "leaf": base64.b64encode(real[i]).decode(), "index": i, "tree_size": args.leaves,
                  "proof": [base64.b64encode(h).decode() for h in merkle.inclusion_proof(i, args.leaves, hashes.read)],
                  "checkpoint": note}
        files = {"arbiter.proof/1": json.dumps(bundle, indent=1, sort_keys=True).encode() + b"\n",
                 "tlog-proof": from_bundle(bundle).text.encode()}
        for name, data in files.items():
            start = time.perf_counter()
            done = check_file(data, log_key, policy)
            times[name].append(time.perf_counter() - start)
            sizes[name].append(len(data))
            assert done.leaf["index"] == i
    for name in sizes:
        print(f"{name}: {min(sizes[name]):,}-{max(sizes[name]):,} bytes; checked offline in "
              f"{statistics.median(times[name]) * 1e3:.2f} ms (median of {len(chosen)}), with {args.witnesses} "
              f"cosignatures and a quorum of {max(0, args.witnesses - 1)}")


if __name__ == "__main__":
    main()
