"""The referee's service layer: the event-sourced application, its stores, and the facade of simple types."""
