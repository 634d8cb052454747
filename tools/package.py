"""Build dist/sitecheck_qgis.zip for QGIS's "Install from ZIP" and QGIS_PLUGINPATH.

    python3 tools/package.py

The zip's single top folder is ``sitecheck_qgis/``: the plugin files, the
engine package (the plugin runs that copy of the engine) and the guides its help
texts point to (``docs/``), without tests, benchmarks, tools or development files.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP = "sitecheck_qgis"
FILES = (
    "metadata.txt",
    "__init__.py",
    "plugin.py",
    "resources.py",
    "resources.qrc",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "engine-requirements.txt",
    "constraints.txt",
)
FOLDERS = ("processing", "ui", "layers", "bridge", "icons", "sitecheck", "docs")
SKIPPED_PARTS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
SKIPPED_SUFFIXES = {".pyc", ".pyo"}


def plugin_files() -> list[Path]:
    """Every file the packaged plugin holds, relative to the repository root."""
    found = [Path(name) for name in FILES if (ROOT / name).is_file()]
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT)
            if (
                path.is_file()
                and not (SKIPPED_PARTS & set(relative.parts))
                and path.suffix not in SKIPPED_SUFFIXES
            ):
                found.append(relative)
    return found


def build(target: Path) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".zip.part")
    with zipfile.ZipFile(temporary, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for relative in plugin_files():
            archive.write(ROOT / relative, f"{TOP}/{relative.as_posix()}")
    temporary.replace(target)
    return target


def main() -> int:
    target = build(ROOT / "dist" / f"{TOP}.zip")
    print(f"wrote {target} ({target.stat().st_size // 1024} KB, {len(plugin_files())} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
