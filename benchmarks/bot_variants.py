"""Variants of the built-in bots, for measurements: players of ``rummikub arena`` (``module:Name``) with this
folder on the path.

    PYTHONPATH=python:benchmarks python -m rummikub arena --players bot_variants:ListingHardBot,hard --games 6000 --seed 11 --jobs 2
"""

from __future__ import annotations

from rummikub.bots.hard import HardBot


class ListingHardBot(HardBot):
    """The hard bot listing every legal play of a rack with at most 4096 sub-multisets and scoring them all
    (``max_enumeration=4096``), where the default bot compares the best play with the best play keeping its
    jokers."""

    name = "hard-listing"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, max_enumeration=4096)
