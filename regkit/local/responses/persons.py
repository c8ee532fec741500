"""``POST /v1/search/person``, ``GET /v1/person/{person_id}`` and ``GET /v1/person/{person_id}/holdings``."""

from __future__ import annotations

from flask import Response

from regkit.schema.interface import UUID_PATTERN

from ..exceptions import ApiError
from ..models import persons
from ..search.person_request import parse_person_search
from .bodies import read_json_object
from .context import charged, current, current_user
from .render import json_response

__all__ = ["search_person", "get_person", "get_person_holdings", "check_person_id"]


def check_person_id(person_id: str) -> str:
    """Return ``person_id`` if it is a UUID, else raise a 400 ``invalid_person_id``."""
    if not UUID_PATTERN.match(person_id):
        raise ApiError(
            "invalid_person_id",
            f"{person_id[:60]!r} is not a person id (a UUID, as in search results, owners and the "
            "representation entries of companies).",
        )
    return person_id


def search_person() -> Response:
    """One page of persons with a published date of birth matching the query and filters; 10 credits.

    A body the parser refuses (400) is charged nothing.
    """
    search = parse_person_search(read_json_object(required=False))
    return json_response(charged(persons.search_person(current(), current_user(), search)))


def get_person(person_id: str) -> Response:
    """One person with their management positions, current and past; 10 credits."""
    person_id = check_person_id(person_id)
    return json_response(charged(persons.get_person(current(), current_user(), person_id)))


def get_person_holdings(person_id: str) -> Response:
    """What one person holds and held; 10 credits."""
    person_id = check_person_id(person_id)
    return json_response(charged(persons.get_person_holdings(current(), current_user(), person_id)))
