"""The JSON Schemas (draft 2020-12) of the project's JSON: ``action``, ``observation``, ``record`` (full and
public game records), ``draft`` (a draft and a check answer), plus whatever else ships in this folder.

The files are shipped in the wheel; their ``$id`` is ``https://rummikub.invalid/schemas/<name>.schema.json``
(a name, never fetched), so they refer to each other by file name.

>>> sorted(schema_names())
['action', 'draft', 'observation', 'protocol', 'record', 'server']
>>> validator("action").is_valid({"kind": "draw"})
True
"""

from __future__ import annotations

import functools
import importlib
import json
from importlib import resources
from collections.abc import Callable
from typing import Any

__all__ = ["BASE_URI", "schema_names", "load_schema", "registry", "validator", "fast_check"]

BASE_URI = "https://rummikub.invalid/schemas/"
"""The base of every schema's ``$id``."""

_SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """The names of the shipped schemas (file names without ``.schema.json``)."""
    return sorted(p.name[:-len(_SUFFIX)] for p in resources.files(__name__).iterdir() if p.name.endswith(_SUFFIX))


@functools.lru_cache(maxsize=None)
def _load(name: str) -> str:
    if name not in schema_names():
        from .._errors import RummikubError

        raise RummikubError(f"no schema {name!r}; the schemas are {', '.join(schema_names())}")
    return resources.files(__name__).joinpath(name + _SUFFIX).read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """A fresh copy of the schema called ``name`` (``"observation"``, ...)."""
    out: dict[str, Any] = json.loads(_load(name))
    return out


@functools.lru_cache(maxsize=1)
def registry() -> Any:
    """A ``referencing.Registry`` holding every shipped schema (needs the ``jsonschema`` package)."""
    referencing = importlib.import_module("referencing")
    return referencing.Registry().with_resources(
        (BASE_URI + name + _SUFFIX, referencing.Resource.from_contents(load_schema(name)))
        for name in schema_names())


@functools.lru_cache(maxsize=None)
def validator(name: str) -> Any:
    """A ``jsonschema`` validator of the schema called ``name``, resolving references to the other schemas
    (needs the ``jsonschema`` package). ``validator("observation").validate(view.to_dict())`` raises
    ``jsonschema.ValidationError`` when the data does not match."""
    cls = importlib.import_module("jsonschema").Draft202012Validator
    schema = load_schema(name)
    cls.check_schema(schema)
    return cls(schema, registry=registry())


@functools.lru_cache(maxsize=None)
def fast_check(name: str, definition: str) -> Callable[[Any], bool] | None:
    """A compiled ``fastjsonschema`` yes/no check of ``$defs/<definition>`` of the schema called ``name``
    (tens of times faster than ``jsonschema`` on valid data), or None when fastjsonschema is not installed.
    fastjsonschema implements draft-07, whose meaning of every keyword these schemas use is the same as draft
    2020-12's; ``jsonschema`` stays the reference and words every error.

    >>> check = fast_check("protocol", "request")
    >>> check is None or (check({"id": 1, "op": "nope"}) is False)
    True
    """
    try:
        fastjsonschema = importlib.import_module("fastjsonschema")
    except ImportError:  # pragma: no cover - a declared dependency
        return None

    def shipped(uri: str) -> Any:  # the other schemas, by their $id: never fetched
        return load_schema(uri.removeprefix(BASE_URI).removesuffix(_SUFFIX))

    root = load_schema(name)
    compiled = fastjsonschema.compile({"$id": root["$id"], "$defs": root["$defs"], "$ref": f"#/$defs/{definition}"},
                                      handlers={"https": shipped})
    error = fastjsonschema.JsonSchemaException

    def check(instance: Any) -> bool:
        try:
            compiled(instance)
        except error:
            return False
        return True

    return check
