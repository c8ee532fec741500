"""The exception tree: branches, built-in bases, context, pickling, no key."""

from __future__ import annotations

import pickle

import pytest

from regkit import errors

pytestmark = pytest.mark.slow


def test_public_names_are_all() -> None:
    public = {
        n for n, v in vars(errors).items() if not n.startswith("_") and getattr(v, "__module__", "") == errors.__name__
    }
    assert set(errors.__all__) == public


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, errors.BadRequestError),
        (401, errors.AuthenticationError),
        (402, errors.PaymentRequiredError),
        (403, errors.PermissionDeniedError),
        (404, errors.NotFoundError),
        (409, errors.ConflictError),
        (429, errors.RateLimitedError),
        (500, errors.ServerError),
        (503, errors.ServerError),
        (418, errors.APIError),
    ],
)
def test_status_maps_to_branch(status: int, cls: type) -> None:
    assert errors.error_for_status(status) is cls
    assert issubclass(cls, errors.APIError) and issubclass(cls, errors.RegkitError)


#: Functions of regkit.errors that are not errors: not re-exported by regkit and regkit.client.
HELPERS = {"error_for_status", "explain_arguments", "user_stacklevel", "close_keywords", "unexpected_keyword"}


def test_builtin_bases_let_plain_except_work() -> None:
    assert issubclass(errors.ValidationError, ValueError)
    assert issubclass(errors.BadRequestError, ValueError)
    assert issubclass(errors.NotFoundError, LookupError)
    assert issubclass(errors.OfflineCacheMiss, LookupError)
    assert issubclass(errors.WaitTimeout, TimeoutError)
    for name in errors.__all__:
        obj = getattr(errors, name)
        if (
            isinstance(obj, type) and obj is not errors.Interrupted
        ):  # an error under one root, a warning under the other
            assert issubclass(obj, errors.RegkitError) != issubclass(obj, errors.RegkitWarning), name
    # An interrupt is neither: a KeyboardInterrupt, so `except Exception` (and `except RegkitError`) lets it pass.
    assert issubclass(errors.Interrupted, KeyboardInterrupt) and not issubclass(errors.Interrupted, Exception)
    assert issubclass(errors.ArgumentError, errors.ValidationError) and issubclass(errors.ArgumentError, TypeError)
    assert issubclass(errors.RegkitWarning, UserWarning)
    assert issubclass(errors.CacheUnavailableError, errors.CacheError)


def test_message_carries_context_and_suggestion() -> None:
    exc = errors.NotFoundError(
        "Company does not exist.", method="GET", path="/v1/company/DE-HRB-B1234-1", status=404, code="company_not_found"
    )
    text = str(exc)
    assert text.startswith("GET /v1/company/DE-HRB-B1234-1: 404 company_not_found: Company does not exist.")
    assert exc.suggestion and exc.suggestion in text
    assert (exc.method, exc.path) == ("GET", "/v1/company/DE-HRB-B1234-1")
    assert (exc.status, exc.code) == (404, "company_not_found")


def test_every_class_has_a_suggestion() -> None:
    for name in errors.__all__:
        obj = getattr(errors, name)
        if isinstance(obj, type) and issubclass(obj, errors.RegkitError) and obj is not errors.RegkitError:
            assert obj("x").suggestion, name


def test_pickle_round_trip_keeps_fields() -> None:
    exc = errors.RateLimitedError(
        "slow down",
        method="GET",
        path="/v1/credits",
        status=429,
        code="rate_limited",
        retry_after=2.5,
        outcome_unknown=False,
    )
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is errors.RateLimitedError
    assert (back.retry_after, back.status, back.code, str(back)) == (2.5, 429, "rate_limited", str(exc))
    budget = pickle.loads(pickle.dumps(errors.BudgetExceededError("no", needed=10, remaining=3)))
    assert (budget.needed, budget.remaining) == (10, 3)


def test_tree_is_drawn_in_module_docstring() -> None:
    for name in errors.__all__:
        if name not in HELPERS:
            assert name in errors.__doc__, name


def test_package_all_is_the_public_surface() -> None:
    import types

    import regkit.client as package

    public = {n for n, v in vars(package).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)}
    assert set(package.__all__) == public
    for name in package.__all__:
        assert getattr(package, name) is not None
