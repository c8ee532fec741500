"""What every explorer shares: the client, a status line, the credits line, greying out what no longer
applies, and a static snapshot for notebooks opened without a live kernel."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from regkit.errors import ArgumentError, RegkitError

from .messages import error_html
from .render import credits_html, message_html
from .static import STALE_CLASS, snapshot_html

if TYPE_CHECKING:
    from regkit.client.protocol import RegisterClient

__all__ = ["EXPLORER_CSS", "Explorer", "STALE_CLASS"]

EXPLORER_CSS = (
    f"<style>.{STALE_CLASS}{{opacity:0.4;pointer-events:none;filter:grayscale(1)}}"
    ".regkit-itable td.regkit-num,.regkit-itable td.regkit-date,.regkit-itable td.regkit-id,"
    ".regkit-itable td.regkit-label{white-space:nowrap}"
    ".regkit-itable th{white-space:nowrap}</style>"
)
"""The explorers' own CSS (in the invisible ``css`` widget each explorer shows first)."""


class Explorer(widgets.VBox):
    """An ``ipywidgets.VBox`` with ``client``, ``status`` (messages) and ``credits`` (spent / saved).

    Displayed, an explorer is the live widget where a kernel runs it (a trusted notebook); it also carries
    a static HTML snapshot of what it showed when displayed (``text/html``: its title, inputs, status,
    credits, the visible tab's tables and figures as images — :func:`regkit.widgets.static.snapshot_html`),
    which is what JupyterLab shows in a notebook opened fresh and untrusted, where widgets do not render.

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()`` (the bundled local register without a key).

    Attributes
    ----------
    css : ipywidgets.HTML
        The explorers' CSS (:data:`EXPLORER_CSS`), invisible; put it among the children.
    spent_credits, saved_credits : int
        What this explorer's own actions spent and saved by the cache (explorers sharing a client share its bill;
        the credits line says this explorer's part, then the client's total).
    """

    TITLE = ""
    """The heading of the static snapshot (default: the class name)."""

    def __init__(self, client: RegisterClient | None = None, **kwargs: Any) -> None:
        if client is None:
            from regkit.client import Client

            client = Client()
        elif isinstance(client, (str, bytes, int, float, dict, list, tuple)) or type(client).__name__ == "DataFrame":
            kind = type(client).__name__
            name = f"{'an' if kind[0].lower() in 'aeiou' else 'a'} {kind}"
            if isinstance(client, str):
                name = f"the string {client[:40]!r}"
            raise ArgumentError(
                f"{type(self).__name__}() takes a client as its first argument, not {name}",
                suggestion=f"pass a regkit.Client() (or nothing: the bundled register), then the rest by keyword: "
                f"{type(self).__name__}(client, ...)",
            )
        self.client = client
        self.spent_credits = 0
        self.saved_credits = 0
        self.status = widgets.HTML()
        self.credits = widgets.HTML()
        self.css = widgets.HTML(EXPLORER_CSS, layout=widgets.Layout(display="none"))
        super().__init__(**kwargs)
        self.refresh_credits()

    def refresh_credits(self) -> None:
        """Show what this explorer spent and saved, and its client in all."""
        self.credits.value = credits_html(self.client, self.spent_credits, self.saved_credits)

    def metered(self, action: Callable[[], Any]) -> Any:
        """Run ``action`` (a call of this explorer's client) and count what it spent and saved as this
        explorer's; then refresh the credits line. Returns what ``action`` returns."""
        spent, saved = self.client.credits_spent, self.client.credits_saved
        try:
            return action()
        finally:
            self.spent_credits += self.client.credits_spent - spent
            self.saved_credits += self.client.credits_saved - saved
            self.refresh_credits()

    @staticmethod
    def mark_stale(widget: widgets.DOMWidget, stale: bool) -> None:
        """Grey ``widget`` out (``stale=True``: what it shows no longer answers the inputs) or back in."""
        if stale:
            widget.add_class(STALE_CLASS)
        else:
            widget.remove_class(STALE_CLASS)

    def _run(self, action: Callable[[], Any], busy: str) -> Any:
        """Run ``action`` with a busy message; a regkit error is shown in ``status`` instead of raised."""
        self.status.value = message_html(busy)
        try:
            return self.metered(action)
        except RegkitError as exc:
            self.status.value = error_html(exc)
            return None

    def snapshot_html(self) -> str:
        """The explorer as static HTML, as it shows now (see :func:`regkit.widgets.static.snapshot_html`)."""
        return snapshot_html(self, self.TITLE or type(self).__name__)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The widget view, and beside it ``text/html``: the static snapshot (JupyterLab shows the widget
        where it can, the snapshot where it cannot — an untrusted notebook, or one without a kernel)."""
        data: dict[str, Any] = super()._repr_mimebundle_(**kwargs)
        data["text/html"] = self.snapshot_html()
        return data
