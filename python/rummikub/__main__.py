"""``python -m rummikub``: the same command line as ``rummikub`` (see :mod:`rummikub.cli`)."""

import sys

from .cli import main

sys.exit(main())
