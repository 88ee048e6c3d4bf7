"""The plain record base (:class:`excover.records.Record`) writes what a dataclass would:
the constructor from the annotated fields (positional, keyword-only, defaults, fresh
mutable defaults), the repr and the equality, and refuses what a dataclass refuses."""

from __future__ import annotations

import pickle

import pytest

from excover.counting.outcome import Outcome
from excover.records import Record, field
from excover.statistics import Stats

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from dataclasses import KW_ONLY
    from typing import Any, ClassVar


class Point(Record):
    x: int
    y: int = 0
    _: KW_ONLY
    label: str | None = None
    tags: list[str] = field(default_factory=list)
    ORIGIN: ClassVar[str] = "o"


class Labelled(Point):
    label: str | None = "p"
    z: int = 0


#: The classes as a caller without type checking sees them (the calls refused at run time).
untyped: Any = Point
untyped_labelled: Any = Labelled


class Derived(Record):
    seconds: float
    minutes: float = 0.0

    def _checked(self) -> None:
        self.minutes = self.seconds / 60


def test_fields_positional_keyword_and_defaults() -> None:
    point = Point(1, 2, label="a")
    assert (point.x, point.y, point.label, point.tags) == (1, 2, "a", [])
    assert Point(3).y == 0
    assert Point._fields == ("x", "y", "label", "tags")
    assert repr(Point(1)) == "Point(x=1, y=0, label=None, tags=[])"


def test_a_mutable_default_is_made_for_each_record() -> None:
    first, second = Point(1), Point(1)
    first.tags.append("t")
    assert second.tags == []


def test_a_subclass_adds_fields_and_changes_a_default() -> None:
    point = Labelled(1, z=5)
    assert (point.label, point.z) == ("p", 5)
    assert Labelled._fields == ("x", "y", "label", "tags", "z")
    with pytest.raises(TypeError, match="positional"):
        untyped_labelled(1, 2, "q")


def test_checked_derives_fields_once_set() -> None:
    assert Derived(90).minutes == 1.5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: untyped(), "missing required argument: 'x'"),
        (lambda: untyped(1, 2, 3), "takes 2 positional arguments"),
        (lambda: untyped(1, colour="red"), "unexpected keyword argument 'colour'"),
        (lambda: untyped(1, x=2), "multiple values for argument 'x'"),
    ],
)
def test_bad_calls_are_refused_as_a_dataclass_would(
    call: Callable[[], object], message: str
) -> None:
    with pytest.raises(TypeError, match=message):
        call()


def test_a_field_without_default_after_one_with_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(Record):
            a: int = 0
            b: int  # type: ignore[misc]  # what the test checks


def test_equality_compares_fields_and_type_and_records_are_unhashable() -> None:
    assert Point(1, 2) == Point(1, 2)
    assert Point(1, 2) != Point(1, 3)
    assert Point(1) != Labelled(1)
    with pytest.raises(TypeError):
        hash(Point(1))


def test_records_pickle_as_they_are_sent_to_workers() -> None:
    stats = Stats(solutions=3, nodes=10, complete=True)
    assert pickle.loads(pickle.dumps(stats)) == stats
    outcome = Outcome("search", "dlx", 3, None, {"nodes": 10})
    again = pickle.loads(pickle.dumps(outcome))
    assert (again.count, again.stats, again.error) == (3, {"nodes": 10}, None)
    assert Outcome("zdd", None, None, "timeout").stats == {}
