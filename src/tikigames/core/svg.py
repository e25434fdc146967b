"""Pictures: the SVG vocabulary every game draws with, and the options every picture takes.

A picture is SVG text built here, with no dependency (as python-chess's ``chess.svg``): a game
declares ``svg_state`` and ``svg_observation`` on its :class:`~tikigames.core.game.Game`, two
functions of a state (or an observation) and :class:`PictureOptions` that draw with
:class:`Svg`. ``state.svg()`` and ``obs.svg()`` call them, and ``_repr_svg_`` makes Jupyter show
them. ``obs.svg()`` is drawn from the observation alone, so it cannot show what its player does
not know. A game without pictures of its own gets :func:`text_picture`, its text in a frame.

The colours are the Okabe–Ito palette, safe for colour-blind readers; owners are told apart by
a letter or a shape as well as by colour (:data:`SEAT_COLOURS`, :data:`SEAT_LETTERS`).
Pictures are deterministic: equal inputs give byte-identical text (numbers are rounded, and
nothing depends on time or ids).

This module is in the core layer: it imports only from :mod:`tikigames.core`.

>>> from tikigames.core.svg import PALETTE, Svg
>>> picture = Svg(200, 100)
>>> picture.rect(10, 10, 80, 40, fill=PALETTE["sky"], title="a <box>")
>>> picture.text(50, 80, "hello & welcome", size=12)
>>> svg = picture.render(size=400)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"')
True
>>> "a &lt;box&gt;" in svg and "hello &amp; welcome" in svg
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final
from xml.sax.saxutils import escape

__all__ = [
    "PALETTE",
    "SEAT_COLOURS",
    "SEAT_LETTERS",
    "PictureOptions",
    "Svg",
    "text_picture",
]

#: The Okabe–Ito colours (safe for the common colour-vision deficiencies), and neutrals.
PALETTE: Final = {
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "black": "#000000",
    "grey": "#999999",
    "light": "#EEEEEE",
    "white": "#FFFFFF",
    "board": "#F7F3E8",
}
#: Each seat's colour, in seat order (up to six seats).
SEAT_COLOURS: Final = (
    PALETTE["orange"],
    PALETTE["blue"],
    PALETTE["green"],
    PALETTE["vermillion"],
    PALETTE["purple"],
    PALETTE["sky"],
)
#: Each seat's letter, drawn on its pieces so that owners never depend on colour alone.
SEAT_LETTERS: Final = ("A", "B", "C", "D", "E", "F")


@dataclass(frozen=True)
class PictureOptions:
    """What every picture takes (``state.svg(**options)``, ``obs.svg(**options)``).

    Attributes:
        size: pixels of the picture's longer side (the ``viewBox`` keeps its proportions).
        highlight: the text of an action to outline or arrow, as the viewer saw it; ``None``
            for none. ``svg()`` defaults it to the last action applied.
        coordinates: whether square names and numbers are drawn.
        flipped: the seat drawn at the bottom (``None``: the game's own orientation, or the
            observer's seat for an observation).
        extra: the game's own options (e.g. Paikō's ``overlay``); each game's page lists them.
    """

    size: int = 480
    highlight: str | None = None
    coordinates: bool = True
    flipped: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A wrong type is a TypeError and a value out of range a ValueError, in both builds (a
        # compiled build checks the annotated types itself).
        for name, value, kinds in (
            ("size", self.size, (int,)),
            ("highlight", self.highlight, (str, type(None))),
            ("coordinates", self.coordinates, (bool,)),
            ("flipped", self.flipped, (int, type(None))),
        ):
            if type(value) not in kinds:
                raise TypeError(f"{name} cannot be {value!r}"[:100])
        if not 16 <= self.size <= 10_000:
            raise ValueError(f"size must be in 16..10000, not {self.size}")

    @classmethod
    def of(
        cls,
        size: int,
        highlight: object,
        coordinates: bool,
        flipped: int | None,
        extra: Mapping[str, Any],
        last: str | None,
    ) -> PictureOptions:
        """The options of an ``svg(...)`` call: ``highlight`` ``"last"`` is the text of the
        last action (``last``), an action is its text."""
        if highlight == "last":
            highlight = last
        elif isinstance(highlight, int) and type(highlight) not in (int, bool):
            highlight = str(highlight)  # an action (an int subclass) prints as its notation
        return cls(size, highlight, coordinates, flipped, extra)  # type: ignore[arg-type]

    def check_extra(self, allowed: Iterable[str]) -> None:
        """Raise ``ValueError`` for a game option the game does not draw."""
        names = set(allowed)
        for name in self.extra:
            if name not in names:
                shown = ", ".join(sorted(names)) or "none"
                raise ValueError(f"unknown picture option {name!r} (this game's: {shown})"[:200])


def _attribute(text: str) -> str:
    """``text`` escaped for a double-quoted attribute (``quoteattr`` without its quotes, and
    several times faster: most values are colours and plain words, escaped only when needed)."""
    if "&" in text or "<" in text or ">" in text or '"' in text:
        return escape(text, {'"': "&quot;"})
    return text


def _number(value: float) -> str:
    """A coordinate as short, stable text: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Svg:
    """An SVG picture being drawn: shapes are appended in order (later ones on top), then
    :meth:`render` wraps them in an ``<svg>`` element with a ``viewBox`` of
    ``width`` × ``height`` user units.

    Every shape takes an optional ``title``, the hover text of a ``<title>`` child (a piece's
    name and owner, a square's name), and ``extra`` attributes as a mapping.

    Pieces drawn once and shown many times, as python-chess's ``svg.py`` does: draw a piece on
    a picture of its own and take its :meth:`fragment` (the elements as text, to keep in a memo
    and insert with :meth:`raw`), or wrap it in a :meth:`group`, or put it in the picture's
    ``<defs>`` with :meth:`define` and place copies with :meth:`use`.

    >>> piece = Svg(10, 10)
    >>> piece.circle(5, 5, 4, fill="#ff0000")
    >>> picture = Svg(40, 20)
    >>> picture.define("dot", piece)
    >>> picture.use("dot", 0, 0)
    >>> picture.group(piece, transform="translate(20 0)", title="a red dot")
    >>> print(picture.render(40).replace("><", ">\\n<"))  # doctest: +ELLIPSIS
    <svg ... width="40" height="20">
    <defs>
    ...
    <g id="dot">
    <circle cx="5" cy="5" r="4" fill="#ff0000"/>
    </g>
    </defs>
    <use href="#dot" x="0" y="0"/>
    <g transform="translate(20 0)">
    <title>a red dot</title>
    <circle cx="5" cy="5" r="4" fill="#ff0000"/>
    </g>
    </svg>
    """

    __slots__ = ("_defs", "_parts", "height", "width")

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self._parts: list[str] = []
        self._defs: list[str] = []

    def fragment(self) -> str:
        """The elements drawn so far, as SVG text without the ``<svg>`` frame (and without
        the :meth:`define` d ones): a piece to keep and insert into other pictures with
        :meth:`raw`."""
        return "".join(self._parts)

    def group(self, inner: Svg, *, transform: str | None = None, title: str | None = None) -> None:
        """``inner``'s elements as one ``<g>`` element (``transform``: an SVG transform;
        ``title``: the group's hover text)."""
        attrs = "" if transform is None else f' transform="{_attribute(transform)}"'
        head = "" if title is None else f"<title>{escape(title)}</title>"
        self._parts.append(f"<g{attrs}>{head}{inner.fragment()}</g>")

    def define(self, name: str, inner: Svg) -> None:
        """Put ``inner``'s elements in the picture's ``<defs>`` as the group ``name``, to be
        placed with :meth:`use`: a shape repeated many times is written once."""
        self._defs.append(f'<g id="{_attribute(name)}">{inner.fragment()}</g>')

    def use(self, name: str, x: float, y: float) -> None:
        """A copy of the :meth:`define` d group ``name``, moved by (``x``, ``y``)."""
        self._parts.append(
            f'<use href="#{_attribute(name)}" x="{_number(float(x))}" y="{_number(float(y))}"/>'
        )

    def _shape(self, tag: str, attrs: Sequence[tuple[str, object]], title: str | None) -> None:
        parts = [f"<{tag}"]
        for name, value in attrs:
            if value is None:
                continue
            if isinstance(value, float):
                parts.append(f' {name}="{_number(value)}"')
            else:
                parts.append(f' {name}="{_attribute(str(value))}"')
        if title is None:
            parts.append("/>")
        else:
            parts.append(f"><title>{escape(title)}</title></{tag}>")
        self._parts.append("".join(parts))

    def rect(
        self,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float | None = None,
        rx: float | None = None,
        title: str | None = None,
        dash: str | None = None,
    ) -> None:
        """A rectangle (``rx``: rounded corners)."""
        self._shape(
            "rect",
            [
                ("x", float(x)), ("y", float(y)), ("width", float(width)),
                ("height", float(height)), ("rx", None if rx is None else float(rx)),
                ("fill", fill), ("stroke", stroke),
                ("stroke-width", None if stroke_width is None else float(stroke_width)),
                ("stroke-dasharray", dash),
            ],
            title,
        )  # fmt: skip

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float | None = None,
        title: str | None = None,
        dash: str | None = None,
    ) -> None:
        """A circle."""
        self._shape(
            "circle",
            [
                ("cx", float(cx)), ("cy", float(cy)), ("r", float(r)), ("fill", fill),
                ("stroke", stroke),
                ("stroke-width", None if stroke_width is None else float(stroke_width)),
                ("stroke-dasharray", dash),
            ],
            title,
        )  # fmt: skip

    def polygon(
        self,
        points: Iterable[tuple[float, float]],
        *,
        fill: str = "none",
        stroke: str | None = None,
        stroke_width: float | None = None,
        title: str | None = None,
    ) -> None:
        """A closed polygon through ``points``."""
        text = " ".join(f"{_number(float(x))},{_number(float(y))}" for x, y in points)
        self._shape(
            "polygon",
            [
                ("points", text), ("fill", fill), ("stroke", stroke),
                ("stroke-width", None if stroke_width is None else float(stroke_width)),
            ],
            title,
        )  # fmt: skip

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        stroke: str = PALETTE["black"],
        stroke_width: float = 1.0,
        arrow: bool = False,
        dash: str | None = None,
    ) -> None:
        """A straight line; ``arrow`` puts an arrowhead at its end (``x2``, ``y2``)."""
        self._shape(
            "line",
            [
                ("x1", float(x1)), ("y1", float(y1)), ("x2", float(x2)), ("y2", float(y2)),
                ("stroke", stroke), ("stroke-width", float(stroke_width)),
                ("stroke-dasharray", dash), ("marker-end", "url(#arrow)" if arrow else None),
            ],
            None,
        )  # fmt: skip

    def text(
        self,
        x: float,
        y: float,
        content: str,
        *,
        size: float = 12.0,
        fill: str = PALETTE["black"],
        anchor: str = "middle",
        weight: str | None = None,
        family: str = "sans-serif",
        title: str | None = None,
    ) -> None:
        """Text with its baseline at ``y``, anchored at ``x`` (``start``, ``middle``, ``end``)."""
        attrs = (
            f' x="{_number(float(x))}" y="{_number(float(y))}" font-size="{_number(float(size))}"'
            f' font-family="{_attribute(family)}" fill="{_attribute(fill)}"'
            f' text-anchor="{_attribute(anchor)}"'
            + (f' font-weight="{_attribute(weight)}"' if weight else "")
        )
        inner = (f"<title>{escape(title)}</title>" if title else "") + escape(content)
        self._parts.append(f"<text{attrs}>{inner}</text>")

    def raw(self, element: str) -> None:
        """An element written by the caller (already valid, escaped SVG)."""
        self._parts.append(element)

    def render(self, size: int) -> str:
        """The whole picture, ``size`` pixels along its longer side."""
        scale = size / max(self.width, self.height)
        width, height = _number(self.width * scale), _number(self.height * scale)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_number(self.width)} '
            f'{_number(self.height)}" width="{width}" height="{height}">'
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6"'
            ' markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z"'
            ' fill="#000000"/></marker>' + "".join(self._defs) + "</defs>"
        )
        return head + "".join(self._parts) + "</svg>"


def text_picture(text: str, options: PictureOptions, title: str = "") -> str:
    """A picture of ``text`` (a state's or an observation's text rendering) in a frame: the
    picture of a game that draws none of its own.

    >>> from tikigames.core.svg import PictureOptions, text_picture
    >>> svg = text_picture("line 1\\nline <2>", PictureOptions(size=100))
    >>> svg.count("<text") == 2 and "line &lt;2&gt;" in svg
    True
    """
    options.check_extra(())
    lines = text.splitlines() or [""]
    width = max(len(line) for line in lines) * 7.2 + 16
    height = len(lines) * 16 + 12 + (18 if title else 0)
    picture = Svg(max(width, 40.0), height)
    picture.rect(0, 0, picture.width, height, fill=PALETTE["white"], stroke=PALETTE["grey"])
    top = 20.0
    if title:
        picture.text(8, 18, title, size=13, anchor="start", weight="bold")
        top += 18
    for index, line in enumerate(lines):
        picture.text(8, top + 16 * index, line, size=12, anchor="start", family="monospace")
    return picture.render(options.size)
