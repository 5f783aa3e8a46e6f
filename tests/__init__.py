"""The test suite: ``unit/`` (one module, no I/O), ``integration/`` (several modules, the CLI, whole games,
the arena, bots), ``oracle/`` (cross-checks against the slow independent oracle) and ``helpers/`` (shared
positions, strategies and the oracle, imported as ``from tests.helpers import positions``)."""
