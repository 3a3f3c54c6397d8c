"""The attribute names of the engine's classes of fixed attributes, under either build.

Interpreted, such a class lists them in ``__slots__``; compiled by mypyc (the optional build,
``build_native.py``), its instances have no ``__slots__`` but the compiler records their
attributes in ``__mypyc_attrs__``. Code that copies or compares instances attribute by
attribute asks here, so that it sees the same names both ways.

>>> class Point:
...     __slots__ = ("x", "y")
>>> slot_names(Point)
('x', 'y')
"""

from __future__ import annotations


def slot_names(cls: type) -> tuple[str, ...]:
    """The names of ``cls``'s attributes, its bases' included: the ``__slots__`` of each
    class of its MRO, or when compiled the attributes mypyc gave it (in the compiler's order,
    the class's own first, then its bases'; its ``__slots__`` never reach it)."""
    compiled = cls.__dict__.get("__mypyc_attrs__")
    if compiled is not None and "__slots__" not in cls.__dict__:
        return tuple(compiled)
    names: list[str] = []
    for klass in cls.__mro__:
        own = klass.__dict__.get("__slots__")
        if own is not None:
            names.extend((own,) if isinstance(own, str) else own)
    if not names:
        raise TypeError(f"{cls.__name__} has no fixed attributes")
    return tuple(names)


def interpreted(cls: type) -> bool:
    """Whether ``cls`` runs as Python (its ``__slots__`` are there) rather than compiled.

    A copy that skips ``__init__`` (``cls.__new__(cls)``, then each attribute) can only do so
    interpreted: a compiled class's ``__new__`` runs its ``__init__``, so there the copy is
    built by the constructor, with the cheapest arguments, and overwritten."""
    return "__slots__" in cls.__dict__
