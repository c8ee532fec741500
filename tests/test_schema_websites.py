"""``regkit.schema.websites``: one normalisation of a website for the client and the register, and the pattern the
interface document gives the lookup's ``url``."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regkit.schema.interface import load_openapi
from regkit.schema.websites import MAX_URL_LENGTH, WEBSITE_PATTERN, website_host, website_url


def test_the_document_gives_the_lookup_the_same_pattern_and_length():
    schema = load_openapi()["paths"]["/v0/search/lookup"]["get"]["parameters"][0]["schema"]
    assert (schema["pattern"], schema["maxLength"]) == (WEBSITE_PATTERN, MAX_URL_LENGTH)


@pytest.mark.parametrize(
    "url",
    [
        "example-gmbh.de",
        "https://www.example-gmbh.de",
        "HTTP://WWW.Example-GmbH.DE/",
        "  www.example-gmbh.de/impressum?lang=de#top  ",
        "https://example-gmbh.de:8443/kontakt",
    ],
)
def test_spellings_of_one_website_are_one_host(url):
    assert website_host(url) == "example-gmbh.de"
    assert website_url(url) == "https://example-gmbh.de"


@pytest.mark.parametrize(
    "url, says",
    [
        ("", "blank"),
        ("   ", "blank"),
        ("info@example.de", "user information"),
        ("mailto:info@example.de", "user information"),
        ("ftp://example.de", "scheme is 'ftp'"),
        ("localhost", "host name"),
        ("two words.de", "host name"),
        ("x" * (MAX_URL_LENGTH - 2) + ".de", "characters"),
    ],
)
def test_what_is_no_website_is_refused_saying_why(url, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        website_host(url)


def test_a_non_string_is_refused():
    with pytest.raises(ValueError, match="not int"):
        website_host(42)  # type: ignore[arg-type]


@given(st.text(max_size=60))
def test_the_register_accepts_exactly_what_the_pattern_allows(text):
    # jsonschema and schemathesis read the document's pattern with Python's re: search, not match
    allowed = len(text) <= MAX_URL_LENGTH and re.search(WEBSITE_PATTERN, text) is not None
    try:
        host = website_host(text)
    except ValueError:
        assert not allowed
    else:
        assert allowed and host == website_host(website_url(text))
