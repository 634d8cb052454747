"""Values a session keeps between answers (``sitecheck.io.kept``)."""

from __future__ import annotations

import shapely

from sitecheck.io.kept import KeptByIdentity


def test_a_value_is_made_once_for_the_same_objects_and_again_for_equal_new_ones():
    kept = KeptByIdentity()
    made: list[str] = []

    def make(name: str):
        return lambda: made.append(name) or name

    squares = [shapely.box(0, 0, 1, 1), shapely.box(1, 0, 2, 1)]
    assert kept.value(squares, "tile 10", make("first")) == "first"
    assert kept.value(squares, "tile 10", make("again")) == "first"
    assert kept.value(squares, "tile 20", make("other tile")) == "other tile"
    redrawn = [shapely.box(0, 0, 1, 1), shapely.box(1, 0, 2, 1)]  # equal, not the same
    assert kept.value(redrawn, "tile 10", make("redrawn")) == "redrawn"
    assert kept.value(squares[::-1], "tile 10", make("reordered")) == "reordered"
    assert made == ["first", "other tile", "redrawn", "reordered"]


def test_the_least_recently_used_value_goes_first_and_no_more_than_size_are_kept():
    kept = KeptByIdentity(size=2)
    made: list[int] = []
    groups = [[shapely.Point(n, 0)] for n in range(3)]

    def value(n: int) -> int:
        return kept.value(groups[n], "how", lambda: made.append(n) or n)

    value(0), value(1), value(0), value(2)  # 1 is the least recently used when 2 comes
    value(0), value(1)
    assert made == [0, 1, 2, 1]
    assert len(kept._kept) == 2


def test_each_value_kept_is_taken_and_the_others_are_made_in_one_call():
    """``each``: of several values made from the same objects, those kept are taken as
    they were made, and the others made together in one call given their positions."""
    kept = KeptByIdentity()
    surface = [shapely.box(0, 0, 10, 10)]
    calls: list[list[int]] = []

    def squared(hows: list[int]):
        def make(missing):
            calls.append(missing.tolist())
            return [hows[at] ** 2 for at in missing]

        return make

    assert kept.each(surface, [2, 3], squared([2, 3])) == [4, 9]
    assert kept.each(surface, [5, 3, 2, 7], squared([5, 3, 2, 7])) == [25, 9, 4, 49]
    assert kept.each(surface, [3, 2], squared([3, 2])) == [9, 4]
    other = [shapely.box(0, 0, 10, 10)]  # equal, not the same: nothing of the first is kept
    assert kept.each(other, [2], squared([2])) == [4]
    assert calls == [[0, 1], [0, 3], [0]]
