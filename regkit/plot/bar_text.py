"""Text written on a bar that always fits it: beside the bar or shortened with "…" when the figure is drawn.

A bar's label is measured at draw time, when the figure's layout is known, so it never runs past its bar into
the next one or out of the axes, however the figure is sized; a bar too narrow for three characters shows no text, and a number ("10 %", "€1.2M") is written whole or not at
all: cut short it would read as another number.
The text is black or white, whichever reads better on the bar's colour.
"""

from __future__ import annotations

import re
from typing import Any

from matplotlib import colors
from matplotlib.text import Text

__all__ = ["bar_text"]

_ELLIPSIS = "…"
_OUTSIDE = "#222222"  # text beside a bar, on the white of the axes
_NUMBER = re.compile(r"[−+-]?[€$£]?[\d.,]+\s?(%|k|M|bn)?")  # "10 %", "€1.2M", "−56.8": never shortened


def _text_colour(fill: Any) -> str:
    """``"black"`` or ``"white"``: the one that reads better on ``fill`` (by its relative luminance).

    Examples
    --------
    >>> _text_colour("#1a7f37"), _text_colour("#FFD92F")
    ('white', 'black')
    """
    red, green, blue = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in colors.to_rgb(fill))
    return "black" if 0.2126 * red + 0.7152 * green + 0.0722 * blue > 0.18 else "white"


class _FittedText(Text):
    """A :class:`~matplotlib.text.Text` at a bar's left end, shortened at draw time to the bar's width.

    ``full_text`` keeps the whole text; :meth:`get_text` is what was drawn last. ``x0`` and ``x1`` are the bar's
    ends in data coordinates; ``pad`` the space left at either end, in points.
    """

    def __init__(
        self,
        x0: float,
        x1: float,
        y: float,
        text: str,
        pad: float = 2.0,
        outside: tuple[float, float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(x0, y, text, ha="left", va="center", **kwargs)
        self.full_text, self.x0, self.x1, self.pad = text, x0, x1, pad
        self.outside, self.inside_colour = outside, kwargs.get("color")
        self.placed = "inside"

    def _pixels(self, left: float, right: float) -> float:
        axes = self.axes
        assert axes is not None
        low, high = sorted(axes.get_xlim())
        left, right = max(left, low), min(right, high)
        if right <= left:
            return 0.0
        to_pixels = axes.transData.transform
        return float(to_pixels((right, 0))[0] - to_pixels((left, 0))[0]) - 2 * self.pad * axes.figure.dpi / 72

    def _place(self, renderer: Any) -> bool:
        """Put the whole text beside the bar (right, else left) where there is room; whether it was put."""
        assert self.axes is not None
        if self.outside is None:
            return False
        self.set_text(self.full_text)
        self.set_color(_OUTSIDE)
        width = self.get_window_extent(renderer).width
        before, after = self.outside
        if self._pixels(self.x1, after) >= width:
            self.set_x(self.x1)
            self.set_horizontalalignment("left")
            self.set_transform(self.axes.transData + _offset(self.pad, self.axes.figure))
            self.placed = "right"
            return True
        if self._pixels(before, self.x0) >= width:
            self.set_x(self.x0)
            self.set_horizontalalignment("right")
            self.set_transform(self.axes.transData + _offset(-self.pad, self.axes.figure))
            self.placed = "left"
            return True
        return False

    def _room(self) -> float:
        """The bar's visible width in pixels, less the padding."""
        axes = self.axes
        assert axes is not None
        low, high = sorted(axes.get_xlim())
        left, right = max(self.x0, low), min(self.x1, high)
        if right <= left:
            return 0.0
        to_pixels = axes.transData.transform
        width = to_pixels((right, 0))[0] - to_pixels((left, 0))[0]
        return width - 2 * self.pad * axes.figure.dpi / 72

    def draw(self, renderer: Any) -> None:
        """Fit the text to the bar, then draw it."""
        if self.axes is None or not self.get_visible():
            return
        low = min(self.axes.get_xlim())
        self.set_x(max(self.x0, low))
        self.set_horizontalalignment("left")
        self.set_color(self.inside_colour or _OUTSIDE)
        self.set_transform(self.axes.transData + _offset(self.pad, self.axes.figure))
        self.placed = "inside"
        room = self._room()
        text = self.full_text
        self.set_text(text)
        if self.get_window_extent(renderer).width > room and self._place(renderer):
            super().draw(renderer)
            return
        if self.get_window_extent(renderer).width > room and self.outside is not None and self.inside_colour == "black":
            # dark text reads on a pale bar and on the white beyond it alike: run on past the bar's end
            self.set_color(self.inside_colour)
            self.placed = "across"
            room = max(room, self._pixels(self.x0, self.outside[1]))
        if _NUMBER.fullmatch(text) and self.get_window_extent(renderer).width > room:
            text = ""  # a number cut short is another number ("10…" of "10 %"): whole or not at all
            self.set_text(text)
        while text and self.get_window_extent(renderer).width > room:
            text = text[: len(text) - 1 - (len(text) > 12)].rstrip(" ,·(") if len(text) > 3 else ""
            self.set_text(text + _ELLIPSIS if text else "")
        if self.placed == "across" and self.get_window_extent(renderer).width <= self._room():
            self.placed = "inside"
        super().draw(renderer)


def _offset(points: float, figure: Any) -> Any:
    from matplotlib.transforms import ScaledTranslation

    return ScaledTranslation(points / 72, 0, figure.dpi_scale_trans)


def bar_text(
    ax: Any,
    x0: float,
    x1: float,
    y: float,
    text: str,
    fill: Any,
    fontsize: float = 9.0,
    outside: tuple[float, float] | None = None,
) -> _FittedText:
    """Write ``text`` on the bar from ``x0`` to ``x1`` at ``y`` (data coordinates) of ``ax``, fitted to it.

    With ``outside=(before, after)`` — the free span around the bar in its row, data coordinates (the previous
    bar's end and the next one's start, or the axes' ends) — a text too long for its bar is written whole beside
    it instead, right of the bar if it fits there, else left, in dark grey. Where neither side has room, a text
    that is black on its bar (a pale fill) starts on the bar and runs on past its end, up to ``after``, shortened
    only if even that is too short; a text white on its bar is shortened on the bar. ``artist.placed`` says where
    it went when last drawn (``"inside"``, ``"right"``, ``"left"``, ``"across"``).

    Returns
    -------
    matplotlib.text.Text
        The artist, added to ``ax`` (its gid is ``"bar_text"``; ``full_text`` the whole text, ``x0`` and ``x1``
        the bar's ends).
    """
    artist = _FittedText(
        x0, x1, y, text, fontsize=fontsize, outside=outside, color=_text_colour(fill), gid="bar_text", clip_on=False
    )
    artist.set_in_layout(False)  # fitted at draw time within the axes: its full text must not squeeze the layout
    ax.add_artist(artist)
    return artist
