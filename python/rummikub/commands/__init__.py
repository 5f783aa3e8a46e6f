"""The command line's commands, one module each: :mod:`.solve` and :mod:`.check` (``rummikub arena`` lives
beside the tournament code in :mod:`rummikub.arena`). :mod:`rummikub.cli` registers each with one line."""
