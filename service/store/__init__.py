"""The ground of the service layer: the event-sourced store (application.Store), its one unit of work
(unit_of_work), tokens, idempotency keys and the server's clock. Every concern imports it; it imports none of them."""
