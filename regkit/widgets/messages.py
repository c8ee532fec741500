"""One line of text in the explorers: a message in the colour of its level (info, ok, warning, error)."""

from __future__ import annotations

import html

__all__ = ["LEVELS", "error_html", "error_text", "message_html"]

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


def error_text(exc: BaseException) -> str:
    """An error as a reader's sentence: what happened, then what to do — without the HTTP request line and
    status code that ``str(exc)`` of a :class:`regkit.RegkitError` starts with (those stay in
    :func:`error_html`'s tooltip).

    Examples
    --------
    >>> from regkit.errors import NotFoundError
    >>> exc = NotFoundError("No company has the id DE-HRB-B1204-1.", method="GET", path="/v1/company/DE-HRB-B1204-1",
    ...                     status=404, code="company_not_found", suggestion="check the id where you found it")
    >>> error_text(exc)
    'No company has the id DE-HRB-B1204-1. What to do: check the id where you found it.'
    >>> error_text(ValueError("not a date"))
    'Not a date.'
    """
    message = str(getattr(exc, "message", None) or exc).strip()
    text = _sentence(message)
    suggestion = str(getattr(exc, "suggestion", None) or "").strip()
    if suggestion and suggestion.rstrip(".").lower() not in message.lower():
        text += f" What to do: {suggestion if suggestion.endswith(('.', '!', '?')) else suggestion + '.'}"
    return text


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter (unless it starts with a code such as ``company_id``),
    a full stop at the end."""
    text = text.strip()
    if not text:
        return text
    if text.split(" ", 1)[0].isalpha():
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def error_html(exc: BaseException) -> str:
    """:func:`error_text` as an error line; hovering it shows the technical detail (``str(exc)``: request,
    status, code).

    Examples
    --------
    >>> error_html(ValueError("not a date"))
    '<div class="regkit-message regkit-error" style="color:#cf222e" title="not a date">Not a date.</div>'
    """
    colour = LEVELS["error"]
    return (
        f'<div class="regkit-message regkit-error" style="color:{colour}" title="{html.escape(str(exc))}">'
        f"{html.escape(error_text(exc), quote=False)}</div>"
    )
