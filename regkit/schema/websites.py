"""A company website as the lookup by website compares it: the host, without scheme, ``www.``, case or path.

``GET /v0/search/lookup?url=<website>`` finds the company that publishes a website. The local register and
the client normalise the URL the same way (:func:`website_host`), so ``https://www.Example-GmbH.de/``,
``http://example-gmbh.de`` and ``example-gmbh.de/impressum`` are one website. This module imports only the
standard library.
"""

from __future__ import annotations

import re

__all__ = ["MAX_URL_LENGTH", "WEBSITE_PATTERN", "website_host", "website_url"]

#: Longest website URL a lookup accepts, in characters as sent (the common limit of browsers and servers).
MAX_URL_LENGTH = 2048

WEBSITE_PATTERN = (
    r"^[ \t\n\r\f\v]*(?:[Hh][Tt][Tt][Pp][Ss]?://)?([^ \t\n\r\f\v/?#@:]+\.[^ \t\n\r\f\v/?#@:]+)"
    r"(?::[0-9]{1,5})?(?:[/?#][^ \t\n\r\f\v]*)?[ \t\n\r\f\v]*$"
)
"""A website as the lookup accepts it (the ``pattern`` of the ``url`` parameter in the interface document):
optional blanks, an optional ``http://`` or ``https://``, a host name with a dot (group 1), an optional port,
an optional path, query or fragment. White space is spelled out (``\\s`` differs between regular expression
dialects: Python's includes U+001C to U+001F)."""

_WEBSITE = re.compile(WEBSITE_PATTERN.removesuffix("$") + r"\Z")
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")


def website_host(url: str) -> str:
    """The host of a website URL, as the lookup compares it: lower case, without ``www.``.

    The scheme may be left out (``example.de``); a port, path, query or trailing slash is ignored.

    Parameters
    ----------
    url : str
        A website address, e.g. ``"https://www.example-gmbh.de/"``.

    Returns
    -------
    str
        The host, e.g. ``"example-gmbh.de"``.

    Raises
    ------
    ValueError
        If ``url`` is not a string, is blank, longer than :data:`MAX_URL_LENGTH` characters, or does not match
        :data:`WEBSITE_PATTERN` (a scheme other than ``http`` or ``https``, user information such as an e-mail
        address, no host name with a dot) — the message says what to send instead.

    Examples
    --------
    >>> website_host("https://www.Example-GmbH.de/impressum")
    'example-gmbh.de'
    >>> website_host("example-gmbh.de")
    'example-gmbh.de'
    """
    if not isinstance(url, str):
        raise ValueError(f"A website is a URL string such as 'https://www.example.de', not {type(url).__name__}.")
    if not url.strip():
        raise ValueError("The website is blank; send a URL such as 'https://www.example.de'.")
    if len(url) > MAX_URL_LENGTH:
        raise ValueError(f"The website has {len(url):,} characters; send at most {MAX_URL_LENGTH:,}.")
    match = _WEBSITE.match(url)
    if match is None:
        shown = url.strip()[:80]
        scheme = _SCHEME.match(url)
        if scheme and "://" in url and scheme.group(1).lower() not in ("http", "https"):
            why = f"its scheme is {scheme.group(1)!r}; send an http or https URL"
        elif "@" in url:
            why = "it holds user information (an e-mail address?); send the website itself"
        else:
            why = "send one URL with a host name, e.g. 'https://www.example.de' or 'example.de'"
        raise ValueError(f"{shown!r} is not a website: {why}.")
    return match.group(1).lower().removeprefix("www.")


def website_url(url: str) -> str:
    """The website as the client sends it: ``https://`` and :func:`website_host` (so equal websites share a key).

    Examples
    --------
    >>> website_url("WWW.Example-GmbH.de/")
    'https://example-gmbh.de'
    """
    return "https://" + website_host(url)
