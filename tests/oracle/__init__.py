"""Cross-checks of the search against the independent MILP oracle (``tests.helpers.oracle``)."""
