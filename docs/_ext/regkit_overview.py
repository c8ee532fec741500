"""Make the names in a package's overview table links to their pages.

A package docstring (``regkit.frames``, ``regkit.widgets``) opens with a two-column table of its names and what
each is for, written as plain text so that ``help()`` reads well. On the site a reader wants to click a name:
while autodoc reads a module's docstring, each name of the first column that the module exports (``__all__``)
becomes a cross-reference to it, and the table is widened to fit. Names it does not export stay text.
"""

from __future__ import annotations

import importlib
import re

__all__ = ["link_names", "setup"]

_BORDER = re.compile(r"^(\s*)(=+)(\s+)(=+)\s*$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _linked(cell: str, module: str, exported: set[str]) -> str:
    parts = re.split(r"(,\s*)", cell)
    return "".join(
        f":py:obj:`{part} <{module}.{part}>`" if _NAME.fullmatch(part) and part in exported else part for part in parts
    )


_LITERAL = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)``")


def link_names(lines: list[str], module: str, exported: set[str]) -> list[str]:
    """``lines`` with every simple table's first-column names that are in ``exported`` as cross-references, and
    the exported names the second column writes as literals (````statement_reports````) too.

    Examples
    --------
    >>> table = ["=====  ====", "a, b   one", "c      two, see ``a``", "=====  ===="]
    >>> print("\\n".join(link_names(table, "m", {"a", "c"})))
    ====================  ====
    :py:obj:`a <m.a>`, b  one
    :py:obj:`c <m.c>`     two, see :py:obj:`a <m.a>`
    ====================  ====
    """
    out = list(lines)
    i = 0
    while i < len(out):
        border = _BORDER.match(out[i])
        end = next((j for j in range(i + 1, len(out)) if _BORDER.match(out[j])), None) if border else None
        if border is None or end is None:
            i += 1
            continue
        indent, first, gap = border.group(1), border.group(2), border.group(3)
        split = len(indent) + len(first) + len(gap)  # where the second column starts
        rows = [(out[j][:split].strip(), out[j][split:]) for j in range(i + 1, end)]
        cells = [_linked(cell, module, exported) for cell, _ in rows]
        width = max([len(first), *(len(c) for c in cells)])
        rule = f"{indent}{'=' * width}  {border.group(4)}"
        rests = [
            _LITERAL.sub(lambda m: f":py:obj:`{m[1]} <{module}.{m[1]}>`" if m[1] in exported else m[0], rest)
            for _, rest in rows
        ]
        body = [f"{indent}{cell.ljust(width)}  {rest}".rstrip() for cell, rest in zip(cells, rests)]
        out[i : end + 1] = [rule, *body, rule]
        i += len(body) + 2
    return out


def _process(app, what, name, obj, options, lines) -> None:
    if what != "module" or not name.startswith("regkit"):
        return
    exported = set(getattr(importlib.import_module(name), "__all__", ()))
    if exported:
        lines[:] = link_names(lines, name, exported)


def setup(app):
    app.connect("autodoc-process-docstring", _process)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
