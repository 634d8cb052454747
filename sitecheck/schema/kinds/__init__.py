"""Constraint kinds as plug-ins: one module of this package per kind.

A module here declares ``KIND``, a :class:`ConstraintKind`: the layer role, the
metrics it gives, its flag kinds, its options and the function that measures it.
Everything else follows from the declaration: the command line's flag, the
worker's ``open`` request, the Dask windows (the layer is cut to each window),
the reach around a lot, the result table and its JSON keys, the rule packs'
names, the report's map legend and, through ``sitecheck describe --json``, the
plugin's Processing parameters, the panel's layer list and the map styles.

The measuring function is given a :class:`KindMeasuring`, the run's measuring
context, so a kind module imports nothing of the engine above the schema.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from sitecheck.schema.flag import FlagKind
from sitecheck.schema.metric import Metric
from sitecheck.schema.option import Option
from sitecheck.schema.role import Role


class KindMeasuring(Protocol):
    """What a kind's measuring function may use of a run (``measure.context.Measuring``)."""

    @property
    def count(self) -> int:
        """How many lots the run has."""
        ...

    @property
    def active(self) -> np.ndarray:
        """The indices of the lots with disturbance."""
        ...

    def geometries(self, source: Any) -> np.ndarray:
        """The layer's geometries in the working CRS, within the run's reach."""
        ...

    def buffered_surface(self, geoms: np.ndarray, width_ft: float) -> Any:
        """The area within ``width_ft`` of the geometries (a width of 0: the polygons)."""
        ...

    def overlap(self, surface: Any) -> tuple[np.ndarray, np.ndarray]:
        """Each lot's disturbance in a surface: areas (CRS units) and geometries."""
        ...

    def record(self, metric: str, kind: str, areas: np.ndarray, geoms: np.ndarray) -> None:
        """An area metric in square feet and the flags that show where it lies."""
        ...

    def not_measured(self, *names: str) -> None:
        """Null metrics for a layer that was not given (never 0)."""
        ...

    def option(self, name: str) -> Any:
        """A kind option's value in this run."""
        ...


Measurer = Callable[[KindMeasuring, Any], None]
"""``measurer(run, source)``: fill the kind's metrics; ``source`` is None when not given."""


@dataclass(frozen=True)
class ConstraintKind:
    """One constraint layer and what it gives.

    Attributes
    ----------
    role : Role
        The input layer; its ``key`` names the layer in every surface.
    metrics : tuple of Metric
        The metrics it fills, each ``needs`` the role.
    flags : tuple of FlagKind
        Where its metrics lie, as maps show them.
    measurer : Measurer
        Fills the metrics, or calls ``not_measured`` when the layer is not given.
    options : tuple of Option
        The run's settings it takes, read with ``run.option(name)``: numbers or
        text, each with a Processing key (check_site and the panel offer them).
    reach_options : tuple of str
        The options (in feet) that reach beyond a lot: the layer is read and the
        neighbourhood kept that much farther.
    """

    role: Role
    metrics: tuple[Metric, ...]
    flags: tuple[FlagKind, ...]
    measurer: Measurer
    options: tuple[Option, ...] = ()
    reach_options: tuple[str, ...] = ()


def _declared_kinds() -> tuple[ConstraintKind, ...]:
    """The ``KIND`` of every module of this package, in module-name order."""
    kinds = []
    for module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
        kind = importlib.import_module(f"{__name__}.{module}").KIND
        if not isinstance(kind, ConstraintKind):
            raise TypeError(f"{__name__}.{module}.KIND is not a ConstraintKind")
        if any(o.kind not in ("number", "text") or not o.processing for o in kind.options):
            raise TypeError(
                f"{__name__}.{module}: a kind's options are numbers or text, with a Processing key"
            )
        kinds.append(kind)
    return tuple(kinds)


KINDS: tuple[ConstraintKind, ...] = _declared_kinds()
"""The constraint kinds declared as plug-ins."""
