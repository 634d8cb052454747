"""The wetland classes of the National Wetlands Inventory a run may count, and the adjacent area."""

from __future__ import annotations

NWI_CLASSES: dict[str, str] = {
    "freshwater_emergent": "Freshwater Emergent Wetland",
    "freshwater_forested_shrub": "Freshwater Forested/Shrub Wetland",
    "freshwater_pond": "Freshwater Pond",
    "lake": "Lake",
    "riverine": "Riverine",
    "estuarine_marine_wetland": "Estuarine and Marine Wetland",
    "estuarine_marine_deepwater": "Estuarine and Marine Deepwater",
    "other": "Other",
}
"""NWI's wetland types (the ``WETLAND_TYPE`` values), by the key ``--nwi-classes`` takes."""

DEFAULT_NWI_CLASSES: tuple[str, ...] = (
    "freshwater_emergent",
    "freshwater_forested_shrub",
    "estuarine_marine_wetland",
    "other",
)
"""Vegetated wetlands and NWI's other wetland classes (farmed, shore); not open water."""

WETLAND_ADJACENT_FT = 100.0
"""The regulated adjacent area around a freshwater wetland, feet: New York's 100 ft
(ECL § 24-0701(2); 6 NYCRR 663.2). Every default of ``--wetland-adjacent-ft`` is this."""
