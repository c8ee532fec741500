"""One line of text in the explorers: a message in the colour of its level (info, ok, warning, error)."""

from __future__ import annotations

import html

__all__ = ["LEVELS", "message_html"]

LEVELS = {"info": "#57606a", "ok": "#1a7f37", "warning": "#9a6700", "error": "#cf222e"}
"""Message kinds and their colours."""


def message_html(text: str, level: str = "info") -> str:
    """One escaped line of text in the colour of ``level`` (``info``, ``ok``, ``warning``, ``error``).

    Examples
    --------
    >>> message_html("a < b", "error")
    '<div class="regkit-message regkit-error" style="color:#cf222e">a &lt; b</div>'
    """
    colour = LEVELS[level]
    return f'<div class="regkit-message regkit-{level}" style="color:{colour}">{html.escape(text, quote=False)}</div>'
