"""Helpers the tests and benchmarks share: real server processes, a shared room, stacked decks."""
