"""Tests across modules: the CLI, whole games, the arena, bots, random games, doctests, the stub."""
