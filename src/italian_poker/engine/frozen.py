"""Building the engine's frozen records cheaply on its hot paths.

A frozen dataclass's generated ``__init__`` sets each field through ``object.__setattr__``, to
get past the frozen ``__setattr__``; that costs about three times a plain attribute store. For
a slotted one there are two cheaper ways, both giving the very same instance:

- :func:`open_twin`: a plain class with the same slots. An instance of it is filled in with
  ordinary attribute stores and then given the frozen class, whose layout is identical. The
  engine builds the records it makes on every action (``ActionRecord``) and at the end of every
  deal (``DealResult``, ``PotAward``) this way;
- :func:`slot_setters`: each slot's own setter, for a constructor that runs on an instance of
  the frozen class itself (``DealStart.__init__``).

The public constructors are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Setter = Callable[[object, object], None]

new_instance = object.__new__
"""A fresh, empty instance of a class (its ``__init__`` not called)."""


def _slots(cls: type, names: tuple[str, ...]) -> tuple[str, ...]:
    slots: tuple[str, ...] = tuple(cls.__dict__.get("__slots__", ()))
    if not slots or any(name not in slots for name in names):
        raise TypeError(f"{cls.__name__} has no slots named {names}")
    return slots


def slot_setters(cls: type, *names: str) -> tuple[Setter, ...]:
    """The setters of the slots ``names`` of the slotted class ``cls``, in that order."""
    _slots(cls, names)
    return tuple(cls.__dict__[name].__set__ for name in names)


def open_twin(cls: type) -> Any:
    """A class with the slots of the slotted class ``cls`` and nothing else: fill in an instance
    of it, then set its ``__class__`` to ``cls`` (the layouts match, so Python allows it)."""
    slots = _slots(cls, ())
    twin = type(f"Open{cls.__name__}", (), {"__slots__": slots, "__module__": cls.__module__})
    probe: Any = new_instance(twin)
    for name in slots:
        setattr(probe, name, None)
    probe.__class__ = cls  # raises TypeError here, at import, if the layouts ever differ
    return twin
