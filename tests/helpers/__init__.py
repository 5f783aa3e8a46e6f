"""Helpers shared by the tests and the benchmarks.

- ``positions``: seeded, reproducible search positions;
- ``strategies``: hypothesis strategies and the rule sets they draw from;
- ``oracle``: the independent, slow, exact MILP oracle of the search (needs scipy; import it only after
  ``pytest.importorskip("scipy.optimize")``).
"""
