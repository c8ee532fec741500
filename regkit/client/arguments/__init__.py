"""Checking arguments before anything is opened or sent, so a mistake never costs credits: the client's own
(:mod:`~regkit.client.arguments.client_arguments`), those of each call (:mod:`~regkit.client.arguments.validation`),
register entries as people write them (:mod:`~regkit.client.arguments.company_ids`) and what each search filters
on (:mod:`~regkit.client.arguments.filter_fields`)."""

__all__: list[str] = []
