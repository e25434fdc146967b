"""The built HTML pages, as a browser draws them: every picture of a position on the four games'
pages and the index keeps its own proportions, fits the page, and draws nothing outside its own
box or its background (issue #27: the theme stretched TacTiki's battle outline off the board;
Tac-Tik's side panel sat outside the picture's background).

It needs the docs built, the directory named by ``TIKIGAMES_DOCS_HTML`` (``.ci/run`` builds
``docs/_build/html`` and runs this on it), Selenium and Chromium with its driver (Debian's
``chromium`` and ``chromium-driver``, which ``.ci/run`` installs), and is skipped without them. With
``TIKIGAMES_DOCS_SHOTS=DIR`` it saves a screenshot of each page there, to look at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from .chromium import chromium, find_chromium

#: The built HTML: named, never guessed, so that a stale build is not checked by mistake.
HTML = Path(os.environ.get("TIKIGAMES_DOCS_HTML", "/nonexistent")).resolve()
PAGES = [
    "index.html",
    *(f"games/{name}.html" for name in ("paiko", "tactik", "tactiki", "tiki_topple")),
    "server.html",
]
#: Desktop and phone widths (CSS px).
WIDTHS = (1280, 480)
#: How far (px) a shape's box may pass its picture's edge: half a thick stroke, an arrowhead.
SLACK = 3.0


#: The problems of one picture's SVG document, drawn at its own size: shapes outside the
#: picture, and a background (the first shape) that does not cover it.
CHECK_SVG = """
const svg = arguments[0];
const box = svg.getBoundingClientRect();
const slack = arguments[1];
const problems = [];
const kinds = "rect, circle, ellipse, line, polyline, polygon, path, text, use";
const shapes = [...svg.querySelectorAll(kinds)]
    .filter((e) => !e.closest("defs, marker, clipPath, mask, symbol"));
for (const e of shapes) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < box.left - slack || r.top < box.top - slack
            || r.right > box.right + slack || r.bottom > box.bottom + slack) {
        const edges = (b) => [b.left, b.top, b.right, b.bottom].map((v) => v.toFixed(1));
        problems.push(`${e.tagName} ${e.textContent.trim().slice(0, 40)}: `
            + `[${edges(r)}] outside [${edges(box)}]`);
    }
}
const first = shapes[0];
if (first && first.tagName === "rect") {
    const r = first.getBoundingClientRect();
    if (r.width < box.width - 1 || r.height < box.height - 1) {
        problems.push(`the background covers ${r.width.toFixed(1)} x ${r.height.toFixed(1)} `
            + `of ${box.width.toFixed(1)} x ${box.height.toFixed(1)}`);
    }
}
return problems;
"""

#: Each picture's box on the page, its intrinsic size, and the main column's edges.
BOXES = """
const main = document.querySelector("article[role=main]") || document.body;
const column = main.getBoundingClientRect();
return [...document.querySelectorAll("figure.tikigames-picture")].map((figure) => {
    const picture = figure.querySelector("img, svg");
    const r = picture.getBoundingClientRect();
    return {
        tag: picture.tagName.toLowerCase(),
        left: r.left, right: r.right, width: r.width, height: r.height,
        natural: picture.tagName === "IMG" ? [picture.naturalWidth, picture.naturalHeight] : null,
        complete: picture.tagName === "IMG" ? picture.complete : true,
        src: picture.tagName === "IMG" ? picture.getAttribute("src") : null,
        markup: picture.tagName === "IMG" ? null : picture.outerHTML,
        column: [column.left, column.right],
        viewport: document.documentElement.clientWidth,
    };
});
"""


webdriver = pytest.importorskip("selenium.webdriver")
pytestmark = [
    pytest.mark.skipif(find_chromium() is None, reason="needs chromium and chromedriver"),
    pytest.mark.skipif(
        not (HTML / "index.html").exists(), reason="needs TIKIGAMES_DOCS_HTML: the built docs"
    ),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def _view_box(svg: str) -> tuple[float, float]:
    found = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"', svg)
    assert found, svg[:200]
    return float(found.group(1)), float(found.group(2))


def _load(driver: Any, url: str, width: int) -> None:
    driver.set_window_size(width, 1000)
    driver.get(url)
    driver.execute_script("return document.fonts ? document.fonts.ready : null")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("page", PAGES)
def test_pictures_keep_their_shape_and_stay_inside(
    browser: Any, page: str, width: int, tmp_path: Path
) -> None:
    _load(browser, (HTML / page).as_uri(), width)
    shots = os.environ.get("TIKIGAMES_DOCS_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(width, min(int(height), 16000))
        browser.save_screenshot(str(Path(shots) / f"{page.replace('/', '-')}-{width}.png"))
        browser.set_window_size(width, 1000)
    boxes = browser.execute_script(BOXES)
    assert boxes, f"{page}: no picture"
    problems: list[str] = []
    svgs: list[str] = []
    for number, box in enumerate(boxes, 1):
        where = f"{page} at {width} px, picture {number}"
        svg = unquote(box["src"].partition(",")[2]) if box["src"] else box["markup"]
        svgs.append(svg)
        view_width, view_height = _view_box(svg)
        assert box["complete"] and box["width"] > 0, f"{where}: not drawn"
        shown, drawn = box["width"] / box["height"], view_width / view_height
        if abs(shown / drawn - 1) > 0.01:
            problems.append(f"{where}: shown {shown:.3f} wide per high, its viewBox {drawn:.3f}")
        left, right = box["column"]
        if box["left"] < left - 1 or box["right"] > min(right, box["viewport"]) + 1:
            problems.append(
                f"{where}: spans [{box['left']:.0f}, {box['right']:.0f}], the page's column "
                f"[{left:.0f}, {right:.0f}] (viewport {box['viewport']})"
            )
    # The insides (once, at the first width): each picture drawn on its own (an image's
    # document, which the page's CSS cannot reach), or in place where a picture is inline.
    for number, (box, svg) in enumerate(zip(boxes, svgs, strict=True), 1):
        where = f"{page}, picture {number}"
        if width != WIDTHS[0]:
            break
        if box["src"]:
            file = tmp_path / f"picture-{number}.svg"
            file.write_text(svg, encoding="utf-8")
            _load(browser, file.as_uri(), width)
            root = browser.find_element("css selector", "svg")
        else:
            _load(browser, (HTML / page).as_uri(), width)
            root = browser.find_elements("css selector", "figure.tikigames-picture svg")[number - 1]
        problems += [f"{where}: {text}" for text in browser.execute_script(CHECK_SVG, root, SLACK)]
    assert not problems, "\n".join(problems[:40])
