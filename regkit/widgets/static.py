"""An explorer as static HTML: what JupyterLab shows of it in a notebook opened without a live, trusted kernel.

JupyterLab renders widget views only in a trusted notebook with a kernel; a notebook opened fresh is
untrusted, and its outputs go through JupyterLab's HTML sanitizer, which drops ``<style>`` elements and
inline ``<svg>``. :func:`snapshot_html` walks an explorer's widgets and writes what they show in HTML
that survives it (checked in Chromium by ``tests/notebooks/test_static_explorers_browser.py``):

- styles inline (``style="..."`` attributes are kept), so tables keep the explorers' one style;
- figures as ``<img src="data:image/svg+xml;base64,...">`` — the same vector drawing, in an image the
  sanitizer keeps;
- inputs as their description and value, buttons as labels (their costs included), only the visible tab
  of a ``Tab``, nothing hidden, greyed-out parts greyed;
- sortable tables (itables) as static tables of their displayed text, the selected row marked.
"""

from __future__ import annotations

import base64
import html
import re
from typing import Any

import ipywidgets as widgets

from regkit.errors import explain_arguments

__all__ = ["STALE_CLASS", "inline_html", "snapshot_html", "save_html"]

STALE_CLASS = "regkit-stale"
"""The CSS class of a part of an explorer whose content no longer answers the inputs (drawn greyed out)."""

_BOX = "font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;color:#1f2328;max-width:100%"
_TABLE = "border-collapse:collapse;font-size:12.5px;margin:4px 0 10px 0"
_TH = "text-align:left;font-weight:600;border-bottom:1.5px solid #57606a;padding:3px 10px 3px 4px;white-space:nowrap"
_TD = "text-align:left;padding:2px 10px 2px 4px;border-bottom:1px solid #e5e7eb;vertical-align:top"
_TH_NUM = _TH.replace("text-align:left", "text-align:right")
_NUM = _TD.replace("text-align:left", "text-align:right") + ";white-space:nowrap;font-variant-numeric:tabular-nums"
_DATE = _TD + ";white-space:nowrap"
_MUTED = "color:#57606a"
_STYLE_ELEMENT = re.compile(r"<style\b[^>]*>.*?</style>", re.S | re.I)
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
_SVG_METADATA = re.compile(r"<metadata>.*?</metadata>", re.S)


def _svg_image(match: re.Match[str]) -> str:
    svg = _SVG_METADATA.sub("", match.group(0))  # matplotlib's version stamp: the image is the same without it
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f'<img alt="figure" style="max-width:100%;height:auto" src="data:image/svg+xml;base64,{data}">'


def inline_html(text: str) -> str:
    """HTML of the explorers (:mod:`regkit.widgets.render`) made to survive a sanitizer: ``<style>`` elements
    dropped and their rules for tables written inline, each inline ``<svg>`` made an ``<img>`` of itself.

    Examples
    --------
    >>> inline_html('<style>x</style><table class="regkit-table"><tr><td class="regkit-num">€1</td></tr></table>')
    ... # doctest: +ELLIPSIS
    '<table class="regkit-table" style="border-collapse:...<td class="regkit-num" style="text-align:right;...">€1</td>...'
    >>> inline_html("<svg><g/></svg>")
    '<img alt="figure" style="max-width:100%;height:auto" src="data:image/svg+xml;base64,PHN2Zz48Zy8+PC9zdmc+">'
    """
    text = _STYLE_ELEMENT.sub("", text)
    text = text.replace('<table class="regkit-table">', f'<table class="regkit-table" style="{_TABLE}">')
    text = text.replace("<th>", f'<th style="{_TH}">')
    text = text.replace('<th class="regkit-num">', f'<th class="regkit-num" style="{_TH_NUM}">')
    text = text.replace('<td class="regkit-num">', f'<td class="regkit-num" style="{_NUM}">')
    text = text.replace('<td class="regkit-date">', f'<td class="regkit-date" style="{_DATE}">')
    text = text.replace('<td class="regkit-id">', f'<td class="regkit-id" style="{_DATE}">')
    text = text.replace('<td class="regkit-label">', f'<td class="regkit-label" style="{_DATE}">')
    text = text.replace("<td>", f'<td style="{_TD}">')
    return _SVG.sub(_svg_image, text)


def snapshot_html(explorer: widgets.Widget, title: str) -> str:
    """The explorer as it shows now, as static HTML (see the module docstring).

    Parameters
    ----------
    explorer : ipywidgets.Widget
        Any explorer (or box of widgets).
    title : str
        The heading.

    Returns
    -------
    str
        One ``<div>``; figures inside it are base64 SVG images.
    """
    head = (
        f'<div style="font-weight:600;font-size:15px;border-left:3px solid #0969da;padding-left:6px;'
        f'margin:2px 0 2px 0">{html.escape(title)}</div>'
        f'<div style="{_MUTED};font-size:11.5px;margin:0 0 6px 9px">A snapshot of the explorer when it was '
        "displayed: run the notebook (trusted, with a kernel) to use it.</div>"
    )
    return f'<div class="regkit-snapshot" style="{_BOX}">{head}{_widget(explorer)}</div>'


@explain_arguments
def save_html(view: Any, path: Any, *, title: str | None = None) -> Any:
    """Write an explorer or an interactive group view as a page that works offline: its static snapshot.

    ``ipywidgets.embed.embed_minimal_html`` writes the widgets' state and loads require.js and the widget manager
    from CDNs: without the network its page stays white. This page is the snapshot the view shows where widgets
    cannot run (tables, the figures as SVG images, the inputs as they stand), in one self-contained file.

    Parameters
    ----------
    view : ipywidgets.Widget
        An explorer (:mod:`regkit.widgets`) or :func:`regkit.plot.group_interactive`'s view: anything whose
        ``_repr_mimebundle_`` carries ``text/html``.
    path : str or os.PathLike
        The file to write (UTF-8); an existing file is replaced.
    title : str, optional
        The page's title (default: the explorer's title).

    Returns
    -------
    pathlib.Path
        The file written.

    Raises
    ------
    regkit.errors.ArgumentError
        ``view`` has no static HTML (a plain ipywidgets widget, a figure…).
    """
    from pathlib import Path

    from regkit.errors import ArgumentError

    bundle = view._repr_mimebundle_() if hasattr(view, "_repr_mimebundle_") else None
    body = bundle.get("text/html") if isinstance(bundle, dict) else None
    if not body:
        raise ArgumentError(
            f"save_html needs a regkit explorer or group view; {type(view).__name__} has no static snapshot",
            suggestion="pass an explorer (regkit.widgets.CompanyExplorer(…)) or regkit.plot.group_interactive(…)",
        )
    name = title or getattr(view, "TITLE", None) or "regkit"
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<title>{html.escape(str(name))}</title></head>\n<body style="margin:16px">\n{body}\n</body></html>\n'
    )
    target = Path(path)
    target.write_text(page, encoding="utf-8")
    return target


def _hidden(widget: Any) -> bool:
    layout = getattr(widget, "layout", None)
    return layout is not None and (layout.display == "none" or layout.visibility == "hidden")


def _widget(widget: Any) -> str:
    if _hidden(widget):
        return ""
    out = _content(widget)
    if STALE_CLASS in getattr(widget, "_dom_classes", ()):
        out = f'<div style="opacity:0.4">{out}</div>'
    return out


def _content(widget: Any) -> str:  # one return per kind of widget
    if isinstance(widget, (widgets.HTML, widgets.HTMLMath)):
        return f"<div>{inline_html(widget.value)}</div>" if widget.value else ""
    if isinstance(widget, widgets.Label):
        return f"<span>{html.escape(widget.value)}</span>"
    if isinstance(widget, widgets.Button):
        return _button(widget)
    if isinstance(widget, (widgets.Tab, widgets.Accordion, widgets.Stack)):
        return _tabs(widget)
    if isinstance(widget, widgets.Box):
        parts = [p for p in (_widget(child) for child in widget.children) if p]
        if isinstance(widget, widgets.HBox):
            cells = "".join(f"<div>{p}</div>" for p in parts)
            return f'<div style="display:flex;flex-wrap:wrap;gap:4px 14px;align-items:flex-start">{cells}</div>'
        return "".join(f'<div style="margin:1px 0">{p}</div>' for p in parts)
    if isinstance(widget, widgets.Output):
        return "".join(_output(o) for o in widget.outputs)
    if isinstance(widget, widgets.Image):
        data = base64.b64encode(bytes(widget.value)).decode("ascii")
        return f'<img alt="image" style="max-width:100%" src="data:image/{widget.format};base64,{data}">'
    if type(widget).__name__ == "ITable":
        return _itable(widget)
    if isinstance(widget, widgets.ValueWidget):
        return _control(widget)
    return f'<div style="{_MUTED};font-style:italic">[{html.escape(type(widget).__name__)}: shown when run]</div>'


def _button(button: Any) -> str:
    primary = button.button_style in ("primary", "info")
    colours = "background:#0969da;color:white;border-color:#0969da" if primary else "background:#f6f8fa"
    if button.disabled:
        colours = "background:#f6f8fa;color:#8c959f"
    return (
        f'<span style="display:inline-block;border:1px solid #d0d7de;border-radius:4px;padding:2px 10px;'
        f'white-space:nowrap;{colours}">{html.escape(button.description)}</span>'
    )


def _tabs(widget: Any) -> str:
    index = widget.selected_index
    titles = list(getattr(widget, "titles", ())) or [str(i + 1) for i in range(len(widget.children))]
    bar = "".join(
        f'<span style="padding:2px 10px;white-space:nowrap;'
        f'{"border-bottom:2px solid #0969da;font-weight:600" if i == index else _MUTED}">{html.escape(str(t))}</span>'
        for i, t in enumerate(titles)
    )
    body = _widget(widget.children[index]) if index is not None and index < len(widget.children) else ""
    return (
        f'<div style="display:flex;flex-wrap:wrap;border-bottom:1px solid #d0d7de;margin:6px 0 6px 0">{bar}</div>{body}'
    )


def _control(widget: Any) -> str:
    name = getattr(widget, "description", "") or ""
    if isinstance(widget, widgets.Checkbox):
        return f"<span>{'☑' if widget.value else '☐'} {html.escape(name)}</span>"
    value: Any = getattr(widget, "label", widget.value) if hasattr(widget, "options") else widget.value
    if isinstance(value, (tuple, list)):
        value = ", ".join(map(str, value)) or "any"
    if value is None or value == "":
        shown = f'<span style="{_MUTED}">–</span>'
    else:
        shown = f"<code>{html.escape(str(value))}</code>"
    label = f'<span style="{_MUTED}">{html.escape(name)}</span> ' if name else ""
    return f'<span style="white-space:nowrap">{label}{shown}</span>'


def _itable(table: Any, max_rows: int = 25) -> str:
    frame = table.df
    if frame is None or frame.empty:
        return ""
    selected = set(table.selected_rows or ())
    head = "".join(f'<th style="{_TH}">{html.escape(str(c))}</th>' for c in frame.columns)
    rows = []
    for position, values in enumerate(frame.head(max_rows).itertuples(index=False)):
        mark = ' style="background:#ddf4ff"' if position in selected else ""
        cells = "".join(f'<td style="{_cell_style(str(v))}">{html.escape(str(v))}</td>' for v in values)
        rows.append(f"<tr{mark}>{cells}</tr>")
    more = len(frame) - max_rows
    note = f'<div style="{_MUTED}">… and {more:,} more rows</div>' if more > 0 else ""
    return f'<table style="{_TABLE}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>{note}'


def _cell_style(text: str) -> str:
    """Numbers, money and percentages right-aligned (the displayed text says which); short text never wraps."""
    if re.fullmatch(r"[-+]?€?[\d,.]+( ?[€%])?", text):
        return _NUM
    return _TD + ";white-space:nowrap" if len(text) <= 40 else _TD


def _output(output: dict[str, Any]) -> str:
    data = output.get("data", {})
    if "text/html" in data:
        return inline_html("".join(data["text/html"]))
    if "image/png" in data:
        return f'<img alt="figure" style="max-width:100%" src="data:image/png;base64,{"".join(data["image/png"])}">'
    text = "".join(data.get("text/plain", output.get("text", "")))
    return f"<pre>{html.escape(text)}</pre>" if text else ""
