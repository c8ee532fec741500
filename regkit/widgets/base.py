"""What every explorer shares: the client, a status line and the credits line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from regkit.client import RegkitError

from .render import credits_html, message_html

__all__ = ["Explorer"]


class Explorer(widgets.VBox):
    """An ``ipywidgets.VBox`` with ``client``, ``status`` (messages) and ``credits`` (spent / saved).

    Parameters
    ----------
    client : regkit.Client, optional
        Default ``regkit.Client()`` (the bundled local register without a key).
    """

    def __init__(self, client: Any = None, **kwargs: Any) -> None:
        if client is None:
            from regkit.client import Client

            client = Client()
        self.client = client
        self.status = widgets.HTML()
        self.credits = widgets.HTML()
        super().__init__(**kwargs)
        self.refresh_credits()

    def refresh_credits(self) -> None:
        """Show what the client has spent so far."""
        self.credits.value = credits_html(self.client)

    def _run(self, action: Callable[[], Any], busy: str) -> Any:
        """Run ``action`` with a busy message; a regkit error is shown in ``status`` instead of raised."""
        self.status.value = message_html(busy)
        try:
            return action()
        except RegkitError as exc:
            self.status.value = message_html(str(exc), "error")
            return None
        finally:
            self.refresh_credits()
