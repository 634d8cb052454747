"""Make the README's pictures afresh from the sample village, and record what each depicts.

    /usr/bin/python3 tools/make_images.py sample_data        # make images

docs/images/dock.png        the panel in QGIS desktop (tools/run_qgis.py --screenshot)
docs/images/compliance_map.png   a compliance map page (sitecheck:export_compliance_maps)
docs/images/report.png      the HTML report's first screen (Debian's headless Chromium)

docs/images/images.json records, for each picture, its own SHA-256 and those of the
files that draw it; tests/plugin_layout/test_images_fresh.py fails when a picture is
older than what it depicts (a drawing file changed since), or was replaced by hand.
"""

from __future__ import annotations

import argparse
import atexit
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
RECORD = IMAGES / "images.json"
PARCEL = "1.1-11-5"  # the lot the panel's screenshot shows
WIDTH_PX = 1400  # the README's pictures: legible, not megabytes

# What draws each picture: a change to one of these makes the picture out of date.
DRAWN_BY = {
    "dock.png": [
        "plugin.py",
        "ui/*.py",
        "layers/map_styles.py",
        "layers/styles/*",
        "tools/make_project.py",
        "tools/qgis_session.py",
    ],
    "compliance_map.png": [
        "layers/compliance_atlas.qpt",
        "layers/compliance_layout.py",
        "layers/atlas_pages.py",
        "layers/map_styles.py",
        "layers/styles/*",
        "processing/export_compliance_maps.py",
    ],
    "report.png": ["sitecheck/reports/html*.py", "sitecheck/reports/report.css"],
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sources(image: str) -> dict[str, str]:
    """The files that draw ``image``, each with its SHA-256, by path from the repository."""
    found = sorted({path for pattern in DRAWN_BY[image] for path in ROOT.glob(pattern)})
    return {
        str(path.relative_to(ROOT)): sha256(path)
        for path in found
        if path.is_file() and "__pycache__" not in path.parts
    }


def engine_python() -> str:
    return os.environ.get("SITECHECK_PYTHON") or str(ROOT / ".venv" / "bin" / "python")


def make_dock(sample: Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "run_qgis.py"), str(sample), "--screenshot",
         str(IMAGES / "dock.png")],
        check=True,
    )  # fmt: skip


def make_compliance_map(sample: Path, work: Path) -> None:
    """The panel's lot's page, exported by the Processing algorithm as a user runs it."""
    subprocess.run(
        [sys.executable, str(Path(__file__)), "--maps", str(sample), str(work)],
        check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "SITECHECK_PYTHON": engine_python()},
    )
    shrink(work / "pages" / f"{PARCEL}.png", IMAGES / "compliance_map.png")


def export_maps(sample: Path, work: Path) -> None:
    """(In QGIS's Python) export one PNG per flagged parcel of the sample village."""
    plugins = Path(tempfile.mkdtemp(prefix="sitecheck-plugins-"))
    (plugins / "sitecheck_qgis").symlink_to(ROOT, target_is_directory=True)
    atexit.register(plugins.rmdir)  # runs second: the link first, then its folder
    atexit.register((plugins / "sitecheck_qgis").unlink)
    sys.path[:] = [p for p in sys.path if p not in ("", ".", str(ROOT))]
    sys.path[:0] = [str(plugins), "/usr/share/qgis/python/plugins"]
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    from processing.core.Processing import Processing

    Processing.initialize()
    import sitecheck_qgis

    import processing

    plugin = sitecheck_qgis.classFactory(None)  # kept: it holds the provider
    plugin.initProcessing()
    gpkg = sample / "village.gpkg"
    layers = ("impervious_existing", "impervious_proposed", "floodplain", "wetlands",
              "watercourses", "sda", "zoning", "impaired_watersheds", "soils")  # fmt: skip
    parameters = {
        "ORDINANCE": 2,
        "PARCELS": f"{gpkg}|layername=parcels",
        "DISTURBANCE": f"{gpkg}|layername=disturbance",
        "DEM": str(sample / "dem.tif"),
        **{name.upper(): f"{gpkg}|layername={name}" for name in layers},
        "ONE_FILE_PER_PARCEL": True,
        "OUTPUT_FOLDER": str(work / "pages"),
        "FILE_FORMAT": 1,
    }
    processing.run("sitecheck:export_compliance_maps", parameters)
    plugin.unload()


def make_report(sample: Path, work: Path) -> None:
    """The HTML report of the demo's check, as it opens in a browser."""
    gpkg = sample / "village.gpkg"
    report = work / "report.html"
    layers = ("impervious-existing", "impervious-proposed", "floodplain", "wetlands",
              "watercourses", "sda", "zoning", "impaired-watersheds", "soils")  # fmt: skip
    command = [engine_python(), "-m", "sitecheck", "check", "--ordinance", "scarsdale",
               "--quiet", "--parcels", f"{gpkg}:parcels", "--disturbance",
               f"{gpkg}:disturbance", "--dem", str(sample / "dem.tif"),
               "--out", str(work / "report.gpkg"), "--report", str(report)]  # fmt: skip
    for flag in layers:
        command += [f"--{flag}", f"{gpkg}:{flag.replace('-', '_')}"]
    subprocess.run(command, check=True, cwd=ROOT)
    shot = work / "report.png"
    browser = shutil.which("chromium") or "chromium"
    subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--window-size={WIDTH_PX},1000", f"--screenshot={shot}", report.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    shutil.copy(shot, IMAGES / "report.png")


def shrink(source: Path, target: Path) -> None:
    """``source`` at the README's width, written to ``target``."""
    from qgis.PyQt.QtCore import Qt
    from qgis.PyQt.QtGui import QImage

    image = QImage(str(source))
    if image.isNull():
        raise SystemExit(f"cannot read {source}")
    smooth = Qt.TransformationMode.SmoothTransformation
    if not image.scaledToWidth(WIDTH_PX, smooth).save(str(target), "PNG"):
        raise SystemExit(f"cannot write {target}")


def record() -> None:
    document = {
        image: {"sha256": sha256(IMAGES / image), "drawn_by": sources(image)} for image in DRAWN_BY
    }
    RECORD.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sample", type=Path, help="the sample village folder (make sample)")
    parser.add_argument("work", type=Path, nargs="?", help=argparse.SUPPRESS)
    parser.add_argument("--maps", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    sample = args.sample.resolve()
    if args.maps:  # the child process, in QGIS's Python
        export_maps(sample, args.work)
        return 0
    if not (sample / "village.qgz").is_file():
        raise SystemExit(f"no project in {sample}: run make sample (tools/make_project.py)")
    with tempfile.TemporaryDirectory(prefix="sitecheck-images-") as folder:
        work = Path(folder)
        make_dock(sample)
        make_compliance_map(sample, work)
        make_report(sample, work)
    record()
    print(f"wrote {', '.join(DRAWN_BY)} and {RECORD.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
