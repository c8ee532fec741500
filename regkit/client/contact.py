"""Contact data and the lookup by website: what ``get_contact`` and ``get_company_by_website`` send, and the
record they return.

A website is checked and normalised before anything is sent (:func:`website`, after
:func:`regkit.schema.websites.website_host`): ``https://www.Example.de/`` and ``example.de`` are sent alike,
as ``https://example.de``, so they share one cache entry and one price.
"""

from __future__ import annotations

from typing import Any

from regkit.errors import ValidationError
from regkit.schema.websites import website_url

from .arguments.validation import sendable
from .records import Record

__all__ = ["ContactRecord", "website", "HINTS"]

_CONTACT_HINTS = {
    404: "no credits were spent; either the company id is unknown, or the company publishes no website "
    "(contact_not_available): there is no contact data to get",
    402: "not enough credits: see client.get_credits()",
}
_WEBSITE_HINTS = {
    404: "no credits were spent; no company publishes that website: check the address, or search by name with "
    "client.search_companies(...)",
    402: "not enough credits: see client.get_credits()",
}

#: What an error of each of this resource's operations tells the user, by operation id.
HINTS = {"get_contact": _CONTACT_HINTS, "lookup_company": _WEBSITE_HINTS}


class ContactRecord(Record):
    """A company's published contact data (``client.get_contact``) or the company behind a website
    (``client.get_company_by_website``).

    ``get_contact`` answers ``source_url`` (the website), ``email``, ``phone`` and ``vat_id``;
    ``get_company_by_website`` answers ``company_id``, ``email``, ``phone`` and ``vat_id``. Every member but
    ``source_url`` and ``company_id`` may be ``None``.
    """

    kind = "contact"

    def _label(self) -> str:
        return str(self.raw.get("company_id") or self.raw.get("source_url") or "")


def website(value: Any) -> str:
    """A website URL checked and normalised for sending: ``https://`` and the host, lower case, without ``www.``.

    Parameters
    ----------
    value : object
        What was passed as the website, e.g. ``"www.Example-GmbH.de/impressum"``.

    Returns
    -------
    str
        ``"https://example-gmbh.de"``.

    Raises
    ------
    ValidationError
        Not a string, blank, or not an http(s) URL with a host name (nothing is sent).

    Examples
    --------
    >>> website(" WWW.Example-GmbH.de/impressum ")
    'https://example-gmbh.de'
    """
    if isinstance(value, str):
        sendable(value, "url")
    try:
        return website_url(value)
    except ValueError as exc:
        raise ValidationError(str(exc), suggestion="nothing was sent") from None
