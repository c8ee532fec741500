"""A company website as the lookup by website compares it: the host, without scheme, ``www.``, case or path.

``GET /v0/search/lookup?url=<website>`` finds the company that publishes a website. The local register and
the client normalise the URL the same way (:func:`website_host`), so ``https://www.Example-GmbH.de/``,
``http://example-gmbh.de`` and ``example-gmbh.de/impressum`` are one website. This module imports only the
standard library.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

__all__ = ["MAX_URL_LENGTH", "website_host", "website_url"]

#: Longest website URL a lookup accepts, in characters (the common limit of browsers and servers).
MAX_URL_LENGTH = 2048

_LABEL = re.compile(r"^[a-z0-9_-]{1,63}$")  # lenient: hyphens at the ends occur in the wild
_SCHEMES = ("http", "https")


def website_host(url: str) -> str:
    """The host of a website URL, as the lookup compares it: lower case, without ``www.`` and port.

    The scheme may be left out (``example.de``); a path, query or trailing slash is ignored. An
    internationalised domain name is compared in its ASCII (IDNA) form.

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
        If ``url`` is not a string, is blank, longer than :data:`MAX_URL_LENGTH` characters, has a scheme other
        than ``http`` or ``https``, user information (``name@``) or no host name with a dot — the message says
        what to send instead.

    Examples
    --------
    >>> website_host("https://www.Example-GmbH.de/impressum")
    'example-gmbh.de'
    >>> website_host("example-gmbh.de")
    'example-gmbh.de'
    """
    if not isinstance(url, str):
        raise ValueError(f"A website is a URL string such as 'https://www.example.de', not {type(url).__name__}.")
    text = url.strip()
    if not text:
        raise ValueError("The website is blank; send a URL such as 'https://www.example.de'.")
    if len(text) > MAX_URL_LENGTH:
        raise ValueError(f"The website has {len(text):,} characters; send at most {MAX_URL_LENGTH:,}.")
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        raise ValueError(f"{text[:80]!r} holds white space or a control character; send one URL such as 'example.de'.")
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        host = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise ValueError(
            f"{url.strip()[:80]!r} is not a website URL; send one such as 'https://www.example.de'."
        ) from None
    if parts.scheme.lower() not in _SCHEMES:
        raise ValueError(
            f"{url.strip()[:80]!r} is not a website (scheme {parts.scheme!r}); send an http or https URL such as "
            "'https://www.example.de'."
        )
    if "@" in parts.netloc:
        raise ValueError(
            f"{url.strip()[:80]!r} holds user information (an e-mail address?); send the website, e.g. "
            "'https://www.example.de'."
        )
    host = (host or "").rstrip(".")
    try:
        host = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise ValueError(f"{url.strip()[:80]!r} has no valid host name; send one such as 'www.example.de'.") from None
    host = host.removeprefix("www.")
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.match(label) for label in labels) or labels[-1].isdigit():
        raise ValueError(
            f"{url.strip()[:80]!r} has no host name with a domain (such as 'example.de'); send a website URL."
        )
    return host


def website_url(url: str) -> str:
    """The website as the client sends it: ``https://`` and :func:`website_host` (so equal websites share a key).

    Examples
    --------
    >>> website_url("WWW.Example-GmbH.de/")
    'https://example-gmbh.de'
    """
    return "https://" + website_host(url)
