"""The planner (S2, S8, S9, S16, S18.4): every tool of a document, the steps tied together."""
