"""Evidence kept outside the event store: the signing key, receipts, the signed checkpoint log."""
