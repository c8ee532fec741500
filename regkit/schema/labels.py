"""How the interface's codes read in a figure, a table or a card: ``gmbh`` → "GmbH", ``PROKURA`` → "Prokura".

Frames keep the codes (they are what filters and joins use); views show these labels. A code without a label here
is shown by :func:`display_label` with its underscores as spaces, so a code the live service adds later still
reads as words.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["LABELS", "COLUMN_LABELS", "display_label", "column_label"]

LEGAL_FORM_LABELS: dict[str, str] = {
    "ag": "AG",
    "eg": "eG",
    "ek": "e.K.",
    "ev": "e.V.",
    "ewiv": "EWIV",
    "foreign": "foreign company",
    "gbr": "GbR",
    "ggmbh": "gGmbH",
    "gmbh": "GmbH",
    "kg": "KG",
    "kgaa": "KGaA",
    "unknown": "unknown",
    "llp": "LLP",
    "municipal": "municipal enterprise",
    "ohg": "OHG",
    "se": "SE",
    "ug": "UG (haftungsbeschränkt)",
}

COMPANY_STATUS_LABELS: dict[str, str] = {"active": "active", "inactive": "inactive", "liquidation": "in Liquidation"}

ROLE_LABELS: dict[str, str] = {
    "DIRECTOR": "Geschäftsführer / Vorstand",
    "PROKURA": "Prokura",
    "SHAREHOLDER": "Gesellschafter",
    "OWNER": "Inhaber",
    "PARTNER": "Partner",
    "PERSONAL_LIABLE_DIRECTOR": "persönlich haftender Gesellschafter",
    "LIQUIDATOR": "Liquidator",
    "OTHER": "other",
}

INSOLVENCY_STATUS_LABELS: dict[str, str] = {
    "preliminary": "preliminary proceedings",
    "opened": "opened",
    "rejected_no_assets": "rejected (no assets)",
    "mass_insufficient": "insufficient assets",
    "plan_supervised": "plan supervised",
    "lifted": "lifted",
    "discontinued": "discontinued",
    "discharge_pending": "discharge pending",
    "discharge_granted": "discharge granted",
    "discharge_denied": "discharge denied",
    "discharge_revoked": "discharge revoked",
    "unknown": "unknown",
}

PROCEEDING_KIND_LABELS: dict[str, str] = {"regular_insolvency": "regular", "consumer_insolvency": "consumer"}

DEBTOR_KIND_LABELS: dict[str, str] = {"legal_person": "company", "natural_person": "natural person"}

ADMINISTRATION_KIND_LABELS: dict[str, str] = {
    "external_administration": "insolvency administrator",
    "self_administration": "self-administration",
    "protective_shield": "protective shield",
}

EVENT_TYPE_LABELS: dict[str, str] = {
    "preliminary_measures": "preliminary measures",
    "preliminary_measures_lifted": "preliminary measures lifted",
    "proceedings_opened": "proceedings opened",
    "rejected_insufficient_assets": "rejected (insufficient assets)",
    "in_proceeding_decision": "decision in the proceedings",
    "mass_insufficiency_notified": "insufficient assets notified",
    "distribution_announced": "distribution announced",
    "distribution_record_filed": "distribution record filed",
    "final_distribution_announced": "final distribution announced",
    "proceedings_lifted": "proceedings lifted",
    "proceedings_discontinued": "proceedings discontinued",
    "proceedings_terminated": "proceedings terminated",
    "post_termination_decision": "decision after termination",
    "subsequent_distribution_ordered": "subsequent distribution ordered",
    "discharge_pending": "discharge pending",
    "discharge_granted": "discharge granted",
    "discharge_denied": "discharge denied",
    "discharge_revoked": "discharge revoked",
    "plan_confirmed": "insolvency plan confirmed",
    "plan_supervision_ordered": "plan supervision ordered",
    "plan_supervision_terminated": "plan supervision ended",
    "other": "other",
}

#: Labels by the frame column (or filter field) whose codes they name.
LABELS: dict[str, Mapping[str, str]] = {
    "legal_form": LEGAL_FORM_LABELS,
    "debtor_legal_form": LEGAL_FORM_LABELS,
    "status": COMPANY_STATUS_LABELS,
    "role": ROLE_LABELS,
    "current_status": INSOLVENCY_STATUS_LABELS,
    "proceeding_kind": PROCEEDING_KIND_LABELS,
    "debtor_kind": DEBTOR_KIND_LABELS,
    "administration_kind": ADMINISTRATION_KIND_LABELS,
    "event_type": EVENT_TYPE_LABELS,
}

#: Column names as a heading or legend title says them.
COLUMN_LABELS: dict[str, str] = {
    "debtor_legal_form": "Legal form",
    "legal_form": "Legal form",
    "current_status": "Status",
    "status": "Status",
    "proceeding_kind": "Proceeding",
    "debtor_kind": "Debtor",
    "administration_kind": "Administration",
    "court": "Court",
    "city": "City",
    "role": "Role",
    "event_type": "Event",
    "debtor_name": "Debtor",
    "case_number": "Case",
    "opened_at": "Opened",
    "closed_at": "Closed",
    "last_event_at": "Last event",
    "published_at": "Published",
}


def display_label(column: str, code: object) -> str:
    """The label of ``code`` in ``column``: ``display_label("legal_form", "gmbh")`` → ``"GmbH"``.

    Examples
    --------
    >>> display_label("debtor_legal_form", "gmbh"), display_label("status", "liquidation")
    ('GmbH', 'in Liquidation')
    >>> display_label("role", "PROKURA"), display_label("current_status", "some_new_code")
    ('Prokura', 'some new code')
    >>> display_label("court", "Amtsgericht Kiel")
    'Amtsgericht Kiel'
    """
    text = str(code)
    labels = LABELS.get(column)
    if labels is None:
        return text
    return labels.get(text, text.replace("_", " "))


def column_label(column: str) -> str:
    """A column's name as a heading: ``"debtor_legal_form"`` → ``"Legal form"``.

    Examples
    --------
    >>> column_label("debtor_legal_form"), column_label("insolvency_grounds")
    ('Legal form', 'Insolvency grounds')
    """
    return COLUMN_LABELS.get(column, column.replace("_", " ").capitalize())
