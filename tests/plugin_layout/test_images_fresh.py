"""The README's pictures are those tools/make_images.py made from today's drawing code."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
IMAGES = REPO / "docs" / "images"


def _tool():
    spec = importlib.util.spec_from_file_location(
        "sitecheck_tools_make_images", REPO / "tools" / "make_images.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _record() -> dict:
    return json.loads((IMAGES / "images.json").read_text(encoding="utf-8"))


def test_every_picture_the_readme_shows_is_made_by_the_tool():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\(docs/images/([^)]+\.png)\)", readme))
    assert shown, "the README shows no picture: this test reads its image links"
    assert shown <= set(_tool().DRAWN_BY) == set(_record())


def test_each_picture_is_the_one_the_tool_made():
    tool = _tool()
    for image, made in _record().items():
        assert tool.sha256(IMAGES / image) == made["sha256"], (
            f"docs/images/{image} is not the picture make images wrote: run make images"
        )


def test_no_picture_is_older_than_the_code_that_draws_it():
    tool = _tool()
    for image, made in _record().items():
        now = tool.sources(image)
        changed = sorted(
            path
            for path in set(now) | set(made["drawn_by"])
            if now.get(path) != made["drawn_by"].get(path)
        )
        assert not changed, (
            f"docs/images/{image} is older than {', '.join(changed)}: run make images"
        )
