"""The rule packs bundled with the engine (``sitecheck/ordinances/<id>.toml``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BundledPack:
    """A bundled pack: its id (``--ordinance`` value) and how menus name it."""

    id: str
    name: str
    title: str


BUNDLED_PACKS: tuple[BundledPack, ...] = (
    BundledPack("larchmont", "Larchmont, Ch. 335", "Larchmont, Ch. 335 (stormwater management)"),
    BundledPack("homer", "Homer, Ch. 228 Art. XII", "Homer, Ch. 228 Art. XII (stormwater control)"),
    BundledPack(
        "scarsdale",
        "Scarsdale, Ch. 254",
        "Scarsdale, Ch. 254 (stormwater management and erosion control)",
    ),
)
BUNDLED: tuple[str, ...] = tuple(pack.id for pack in BUNDLED_PACKS)
