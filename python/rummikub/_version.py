"""The package version: the one place it is written (the build reads it from here, and so does
``rummikub.__version__``)."""

__version__ = "0.1.0"
