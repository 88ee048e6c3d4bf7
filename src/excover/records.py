"""Plain record classes: :class:`Record`, a dataclass without importing :mod:`dataclasses`.

Many of excover's small value classes (a run's statistics, a count's result, a request,
a front end's limits) are nothing but named fields with defaults: written by hand, each
repeats its field list three times (the ``__init__`` signature, the assignments and the
``__repr__``). :mod:`dataclasses` would write those for us, but importing it (it imports
:mod:`inspect`) costs every ``excover`` command about a sixth of Python's own start-up,
and these classes sit on every command's path. :class:`Record` writes the same three
methods from the class's annotations, at the cost of one small module.

A subclass lists its fields as annotated class attributes, in order; a field given a
value in the class body defaults to it (an immutable value: the default is shared; a
mutable one is made afresh for each record by ``field(default_factory=...)``).
Fields annotated ``ClassVar[...]`` are not fields; a subclass adds fields after its
base's and may give a base's field another default (annotated again, with its value).
The generated ``__init__`` takes the fields positionally or by name (those after a
``_: KW_ONLY`` line by name only) and then calls ``_checked()`` (a no-op unless the
subclass derives or checks a field there); ``__repr__`` shows every field and ``__eq__``
compares them (a record is mutable, so not hashable).
Type checkers see the class as a dataclass (:func:`typing.dataclass_transform`).

This module imports nothing at run time, so that any module may use it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is for type checkers: a run need not import it
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, TypeVar, dataclass_transform

    T = TypeVar("T")
else:

    def dataclass_transform(**_options: object) -> object:
        """At run time the decorator is for type checkers only: it leaves the class as is."""
        return lambda cls: cls


__all__ = ["Record", "field"]

_MISSING = object()

#: How a class body marks its keyword-only fields: ``_: KW_ONLY`` (with ``KW_ONLY``
#: imported from :mod:`dataclasses` for type checkers only), as a dataclass does.
_KW_ONLY = ("KW_ONLY", "dataclasses.KW_ONLY")


class _Factory:
    """A field's default made afresh for each record (see :func:`field`)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], object]) -> None:
        self.make = make


def field(*, default_factory: Callable[[], T]) -> T:
    """A field whose default is made afresh for each record, ``default_factory()`` (a
    mutable default such as a dictionary), as :func:`dataclasses.field` does."""
    return _Factory(default_factory)  # type: ignore[return-value]  # read by Record


@dataclass_transform(eq_default=True, field_specifiers=(field,))
class Record:
    """Base class of the plain records: the fields are the annotated class attributes."""

    __slots__ = ()

    #: The fields, in order (the base classes' first).
    _fields: ClassVar[tuple[str, ...]] = ()
    #: How many of :attr:`_fields` may be given positionally.
    _positional: ClassVar[int] = 0
    #: The fields' defaults (those that have one).
    _defaults: ClassVar[dict[str, Any]] = {}

    def __init_subclass__(cls, **options: Any) -> None:
        super().__init_subclass__(**options)
        fields = list(cls._fields)
        positional = cls._positional
        keyword_only = positional < len(fields)
        defaults = dict(cls._defaults)
        for name, hint in cls.__annotations__.items():
            hint = str(hint)
            if hint.startswith(("ClassVar", "typing.ClassVar")):
                continue
            if hint in _KW_ONLY:
                keyword_only = True
                continue
            value = cls.__dict__.get(name, _MISSING)
            if name in fields:  # a base class's field given another default here
                if value is _MISSING:
                    raise TypeError(f"{cls.__name__}: field {name!r} is declared twice")
                defaults[name] = value
                continue
            if value is not _MISSING:
                defaults[name] = value
            elif defaults and not keyword_only:
                raise TypeError(
                    f"{cls.__name__}: field {name!r} without a default follows one with a default"
                )
            fields.append(name)
            if not keyword_only:
                positional += 1
        cls._fields = tuple(fields)
        cls._positional = positional
        cls._defaults = defaults

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        name = type(self).__name__
        if len(args) > self._positional:
            raise TypeError(
                f"{name}() takes {self._positional} positional arguments but {len(args)} were given"
            )
        values = dict(zip(fields, args, strict=False))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            values[key] = value
        defaults = self._defaults
        for key in fields:
            value = values.get(key, _MISSING)
            if value is _MISSING:
                value = defaults.get(key, _MISSING)
                if value is _MISSING:
                    raise TypeError(f"{name}() missing required argument: {key!r}")
                if type(value) is _Factory:
                    value = value.make()
            object.__setattr__(self, key, value)
        self._checked()

    def _checked(self) -> None:
        """Derive or check fields once they are all set (the subclass's; none here)."""

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, key) for key in self._fields)

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._fields)
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable, as a dataclass would be
