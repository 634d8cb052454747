"""Values a long-lived session keeps between its answers, by what they were made from.

The panel's worker answers every edit from layers it holds in memory: the constraint
polygons near the work are, from one edit to the next, the same Python objects, and
dissolving them into a surface again cost about 5 ms of each answer (issue 30). A
value is kept under the identity of the objects it was made from; those objects are
kept with it, so no other object can take their identity while the value is kept.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

KEPT_VALUES = 256
"""How many values a session keeps, the least recently used dropped first. An answer
reads 32 of them (median of the bench's growing edits), 70 once its work spans a
project's site (each layer's features near the work, the flood, wetland, buffer and
watershed surfaces, the lots, the DEM, each lot's overlays and slopes; for the lots and
again for the site) and makes few new ones: the last several answers' stay kept."""


class KeptByIdentity:
    """Values made from sequences of objects, each kept until ``size`` others are newer.

    Parameters
    ----------
    size : int
        How many values to keep.
    """

    def __init__(self, size: int = KEPT_VALUES) -> None:
        self.size = size
        self._kept: OrderedDict[tuple, tuple[Sequence[object] | np.ndarray, Any]] = OrderedDict()

    def value(
        self, made_from: Sequence[object] | np.ndarray, how: Hashable, make: Callable[[], Any]
    ) -> Any:
        """The value ``make`` gives, made once for the same objects in the same order and
        the same ``how`` (what else ``make`` depends on)."""
        key = (how, *map(id, made_from))
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
            return found[1]
        value = make()
        self._keep(key, made_from, value)
        return value

    def each(
        self,
        made_from: Sequence[object] | np.ndarray,
        hows: Sequence[Hashable],
        make: Callable[[np.ndarray], Sequence[Any]],
    ) -> list[Any]:
        """One value for each of ``hows``, all made from the same objects: those kept are
        taken, and ``make`` is called once, with the positions of the others, for theirs.

        So a stage measures again only what changed: each lot's overlap with a surface
        is kept by the lot's work (its WKB in ``how``), and an edit to one lot of several
        overlays that lot alone.
        """
        ids = tuple(map(id, made_from))
        values: list[Any] = [None] * len(hows)
        missing: list[int] = []
        for at, how in enumerate(hows):
            found = self._kept.get((how, *ids))
            if found is None:
                missing.append(at)
            else:
                self._kept.move_to_end((how, *ids))
                values[at] = found[1]
        if missing:
            made = make(np.asarray(missing, dtype=np.intp))
            for at, value in zip(missing, made, strict=True):
                values[at] = value
                self._keep((hows[at], *ids), made_from, value)
        return values

    def _keep(self, key: tuple, made_from: Sequence[object] | np.ndarray, value: Any) -> None:
        self._kept[key] = (made_from, value)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


def kept_value(
    kept: KeptByIdentity | None,
    made_from: Sequence[object] | np.ndarray,
    how: Hashable,
    make: Callable[[], Any],
) -> Any:
    """:meth:`KeptByIdentity.value` where a session keeps values; ``make()`` where it does
    not (a batch run keeps nothing)."""
    return make() if kept is None else kept.value(made_from, how, make)
