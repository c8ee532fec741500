"""What the client spends: the spending limit (:mod:`~regkit.client.budget.limit`), the calls that send more than
one request (:mod:`~regkit.client.budget.spending`) and the credits ledger (:mod:`~regkit.client.budget.ledger`)."""

__all__: list[str] = []
