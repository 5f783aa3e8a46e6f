"""Tests of one module each, without I/O."""
