"""Fast constructors for the engine's frozen value classes (events, results).

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``, several times slower than a plain assignment; the
engine builds some twenty events a hand. These live apart from the event
classes so that they can be compiled with the engine (see setup.py) while
``stud.game.events`` stays plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

E = TypeVar("E")


def fast_constructor(cls: type[E]) -> Callable[..., E]:
    """A function building ``cls`` from its fields in order, faster than ``cls(...)``.

    A frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, several times slower than a plain assignment; the
    engine builds some twenty events a hand, so it fills the slots directly.
    The result is the very object ``cls(...)`` would give: frozen, equal, hashable.
    """
    try:
        object.__new__(cls)
    except TypeError:  # a class compiled by mypyc: its own constructor is already fast
        return cls
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    namespace.update({f"_set_{n}": getattr(cls, n).__set__ for n in names})
    body = "".join(f"    _set_{n}(event, {n})\n" for n in names)
    source = f"def build({', '.join(names)}):\n    event = _new(_cls)\n{body}    return event\n"
    exec(source, namespace)  # the same technique dataclasses uses for __init__
    built: Callable[..., E] = namespace["build"]
    built.__doc__ = f"Build a {cls.__name__} (see fast_constructor)."
    return built


def shared_constructor(cls: type[E], limit: int = 1 << 16) -> Callable[..., E]:
    """Like :func:`fast_constructor`, but equal fields give the one shared object.

    Events are immutable values and most repeat from hand to hand (``p2
    calls 4``, ``3rd street``, an ante), so the engine keeps them: a dict
    lookup costs less than building one. At most ``limit`` are kept per class.
    """
    make = fast_constructor(cls)
    cache: dict[tuple[Any, ...], E] = {}
    get = cache.get

    def build(*args: Any) -> E:
        event = get(args)
        if event is None:
            if len(cache) >= limit:
                cache.clear()
            event = cache[args] = make(*args)
        return event

    build.__doc__ = f"A shared {cls.__name__} (see shared_constructor)."
    return build
