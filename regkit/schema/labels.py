"""How the interface's codes read in a figure, a table or a card: ``gmbh`` → "GmbH", ``OWNER`` → "owner".

One language: labels are English, with the German register term as a gloss where it carries meaning
(:func:`glossed`, :data:`GERMAN_TERMS`), the same everywhere; legal forms keep their German names (they are names).

Frames keep the codes (they are what filters and joins use); views show these labels. A code without a label here
is shown by :func:`display_label` with its underscores as spaces, so a code the live service adds later still
reads as words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from regkit.schema.statements import STATEMENTS, walk_lines

__all__ = [
    "LABELS",
    "COLUMN_LABELS",
    "LINE_ITEM_LABELS",
    "GERMAN_TERMS",
    "GERMAN_WORDS",
    "display_label",
    "column_label",
    "glossed",
    "line_item_label",
    "plain_label",
]

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

COMPANY_STATUS_LABELS: dict[str, str] = {"active": "active", "inactive": "inactive", "liquidation": "in liquidation"}


def glossed(english: str, german: str) -> str:
    """An English label with the German register term as its gloss: ``"authorised signatory (Prokura)"``.

    Labels are English; the German term is added, once and in this form, where it carries meaning a translation
    loses (a *Prokura* is a statutory power with its own register entry, a *persönlich haftender Gesellschafter*
    is liable without limit). :data:`GERMAN_TERMS` lists the terms that may appear so.

    Examples
    --------
    >>> glossed("general partner", "persönlich haftender Gesellschafter")
    'general partner (persönlich haftender Gesellschafter)'
    """
    return f"{english} ({german})"


ROLE_LABELS: dict[str, str] = {
    "DIRECTOR": glossed("director", "Geschäftsführer / Vorstand"),
    "PROKURA": glossed("authorised signatory", "Prokura"),
    "SHAREHOLDER": "shareholder",
    "OWNER": "owner",
    "PARTNER": "partner",
    "PERSONAL_LIABLE_DIRECTOR": glossed("general partner", "persönlich haftender Gesellschafter"),
    "LIQUIDATOR": "liquidator",
    "OTHER": "other",
}

GERMAN_TERMS: dict[str, str] = {
    "Geschäftsführer / Vorstand": "director",
    "Prokura": "authorised signatory",
    "persönlich haftender Gesellschafter": "general partner",
}
"""German register terms a label carries, each only as the gloss of its English label (:func:`glossed`): German term
→ English label. Any other German word in a label (``Gesellschafter``, ``Inhaber``, ``in Liquidation``) is one
language too many. Legal forms (GmbH, KG, UG (haftungsbeschränkt)) and names are names, not labels."""

GERMAN_WORDS: tuple[str, ...] = (
    "Gesellschafter",
    "Geschäftsführer",
    "Vorstand",
    "Inhaber",
    "Liquidator",
    "Prokurist",
    "Kommanditist",
    "Komplementär",
    "in Liquidation",
    "aktiv",
    "gelöscht",
)
"""German words that must not stand alone in an English label (outside a gloss of :data:`GERMAN_TERMS`)."""

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
    ('GmbH', 'in liquidation')
    >>> display_label("role", "PROKURA"), display_label("current_status", "some_new_code")
    ('authorised signatory (Prokura)', 'some new code')
    >>> display_label("court", "Amtsgericht Kiel")
    'Amtsgericht Kiel'
    """
    text = str(code)
    labels = LABELS.get(column)
    if labels is None:
        return text
    return labels.get(text, text.replace("_", " "))


def plain_label(column: str, code: object) -> str:
    """:func:`display_label` without its German gloss, for where the legend beside says it in full.

    Examples
    --------
    >>> plain_label("role", "PERSONAL_LIABLE_DIRECTOR"), plain_label("role", "OWNER")
    ('general partner', 'owner')
    """
    text = display_label(column, code)
    for german, english in GERMAN_TERMS.items():
        text = text.replace(glossed(english, german), english)
    return text


def column_label(column: str) -> str:
    """A column's name as a heading: ``"debtor_legal_form"`` → ``"Legal form"``.

    Examples
    --------
    >>> column_label("debtor_legal_form"), column_label("insolvency_grounds")
    ('Legal form', 'Insolvency grounds')
    """
    return COLUMN_LABELS.get(column, column.replace("_", " ").capitalize())


#: English labels of HGB line items beyond the lines of the register's layout, by German term without ordinal.
#:
#: The layout (:mod:`regkit.schema.statements`, whose own labels come first) covers what the bundled world draws;
#: these are the other items of the balance sheet (§ 266 HGB) and the P&L by the Gesamtkostenverfahren (§ 275
#: HGB) a filing may show. Keys are without their outline numbers (``Anlagevermögen``, not with its ``A``). The
#: frames keep the German term as ``name``; the label is what a table or figure shows beside it.
LINE_ITEM_LABELS: dict[str, str] = {
    # the balance sheet: aktiva
    "Aktiva": "Assets",
    "Ausstehende Einlagen auf das gezeichnete Kapital": "Subscribed capital unpaid",
    "Anlagevermögen": "Fixed assets",
    "Immaterielle Vermögensgegenstände": "Intangible assets",
    "Selbst geschaffene gewerbliche Schutzrechte und ähnliche Rechte und Werte": "Self-created intangible rights",
    "Entgeltlich erworbene Konzessionen, gewerbliche Schutzrechte und ähnliche Rechte und Werte": (
        "Purchased concessions, industrial property rights and similar rights"
    ),
    "Entgeltlich erworbene Konzessionen": "Purchased concessions and similar rights",
    "Geschäfts- oder Firmenwert": "Goodwill",
    "Geleistete Anzahlungen": "Prepayments made",
    "Sachanlagen": "Tangible assets",
    "Grundstücke und Bauten": "Land and buildings",
    "Grundstücke, grundstücksgleiche Rechte und Bauten": "Land, land rights and buildings",
    "Grundstücke, grundstücksgleiche Rechte und Bauten einschließlich der Bauten auf fremden Grundstücken": (
        "Land, land rights and buildings, including buildings on third-party land"
    ),
    "Technische Anlagen und Maschinen": "Technical equipment and machinery",
    "Andere Anlagen, Betriebs- und Geschäftsausstattung": "Other equipment, operating and office equipment",
    "Geleistete Anzahlungen und Anlagen im Bau": "Prepayments and assets under construction",
    "Finanzanlagen": "Financial assets",
    "Anteile an verbundenen Unternehmen": "Shares in affiliated companies",
    "Ausleihungen an verbundene Unternehmen": "Loans to affiliated companies",
    "Beteiligungen": "Participations",
    "Ausleihungen an Unternehmen, mit denen ein Beteiligungsverhältnis besteht": "Loans to participations",
    "Wertpapiere des Anlagevermögens": "Long-term securities",
    "Sonstige Ausleihungen": "Other loans",
    "Umlaufvermögen": "Current assets",
    "Vorräte": "Inventories",
    "Roh-, Hilfs- und Betriebsstoffe": "Raw materials and supplies",
    "Unfertige Erzeugnisse, unfertige Leistungen": "Work in progress",
    "Unfertige Erzeugnisse": "Work in progress",
    "Fertige Erzeugnisse und Waren": "Finished goods and merchandise",
    "Forderungen und sonstige Vermögensgegenstände": "Receivables and other assets",
    "Forderungen": "Receivables",
    "Forderungen aus Lieferungen und Leistungen": "Trade receivables",
    "Forderungen gegen verbundene Unternehmen": "Receivables from affiliated companies",
    "Forderungen gegen Unternehmen, mit denen ein Beteiligungsverhältnis besteht": ("Receivables from participations"),
    "Forderungen gegen Gesellschafter": "Receivables from shareholders",
    "Sonstige Vermögensgegenstände": "Other assets",
    "Wertpapiere": "Securities",
    "Sonstige Wertpapiere": "Other securities",
    "Kassenbestand": "Cash in hand",
    "Kassenbestand, Bundesbankguthaben, Guthaben bei Kreditinstituten und Schecks": "Cash and bank balances",
    "Kassenbestand und Guthaben bei Kreditinstituten": "Cash and bank balances",
    "Flüssige Mittel": "Cash and cash equivalents",
    "Rechnungsabgrenzungsposten": "Prepaid expenses and deferred income",
    "Aktive Rechnungsabgrenzungsposten": "Prepaid expenses",
    "Aktive latente Steuern": "Deferred tax assets",
    "Aktiver Unterschiedsbetrag aus der Vermögensverrechnung": "Excess of plan assets over pension liabilities",
    "Nicht durch Eigenkapital gedeckter Fehlbetrag": "Deficit not covered by equity",
    # the balance sheet: passiva
    "Passiva": "Equity and liabilities",
    "Eigenkapital": "Equity",
    "Gezeichnetes Kapital": "Subscribed capital",
    "Kapitalrücklage": "Capital reserves",
    "Gewinnrücklagen": "Retained earnings",
    "Gesetzliche Rücklage": "Legal reserve",
    "Satzungsmäßige Rücklagen": "Statutory reserves",
    "Andere Gewinnrücklagen": "Other revenue reserves",
    "Gewinnvortrag/Verlustvortrag": "Profit / loss carried forward",
    "Gewinn-/Verlustvortrag": "Profit / loss carried forward",
    "Gewinnvortrag": "Profit carried forward",
    "Verlustvortrag": "Loss carried forward",
    "Jahresüberschuss/Jahresfehlbetrag": "Net income / net loss for the year",
    "Jahresüberschuss/-fehlbetrag": "Net income / net loss for the year",
    "Jahresüberschuss": "Net income for the year",
    "Jahresfehlbetrag": "Net loss for the year",
    "Bilanzgewinn": "Net retained profit",
    "Bilanzverlust": "Net accumulated loss",
    "Nicht beherrschende Anteile": "Non-controlling interests",
    "Rückstellungen": "Provisions",
    "Rückstellungen für Pensionen und ähnliche Verpflichtungen": "Provisions for pensions and similar obligations",
    "Pensionsrückstellungen": "Pension provisions",
    "Steuerrückstellungen": "Tax provisions",
    "Sonstige Rückstellungen": "Other provisions",
    "Verbindlichkeiten": "Liabilities",
    "Anleihen": "Bonds",
    "Verbindlichkeiten gegenüber Kreditinstituten": "Liabilities to banks",
    "Erhaltene Anzahlungen auf Bestellungen": "Payments received on account of orders",
    "Verbindlichkeiten aus Lieferungen und Leistungen": "Trade payables",
    "Verbindlichkeiten aus der Annahme gezogener Wechsel und der Ausstellung eigener Wechsel": "Bills payable",
    "Verbindlichkeiten gegenüber verbundenen Unternehmen": "Liabilities to affiliated companies",
    "Verbindlichkeiten gegenüber Unternehmen, mit denen ein Beteiligungsverhältnis besteht": (
        "Liabilities to participations"
    ),
    "Verbindlichkeiten gegenüber Gesellschaftern": "Liabilities to shareholders",
    "Sonstige Verbindlichkeiten": "Other liabilities",
    "Passive Rechnungsabgrenzungsposten": "Deferred income",
    "Passive latente Steuern": "Deferred tax liabilities",
    # the profit and loss account (Gesamtkostenverfahren, § 275 (2) HGB)
    "Gewinn- und Verlustrechnung": "Profit and loss account",
    "Umsatzerlöse": "Revenue",
    "Erhöhung oder Verminderung des Bestands an fertigen und unfertigen Erzeugnissen": (
        "Change in finished goods and work in progress"
    ),
    "Bestandsveränderungen": "Change in inventories",
    "Andere aktivierte Eigenleistungen": "Own work capitalised",
    "Sonstige betriebliche Erträge": "Other operating income",
    "Rohergebnis": "Gross profit",
    "Materialaufwand": "Cost of materials",
    "Aufwendungen für Roh-, Hilfs- und Betriebsstoffe und für bezogene Waren": (
        "Cost of raw materials, supplies and purchased goods"
    ),
    "Aufwendungen für bezogene Leistungen": "Cost of purchased services",
    "Personalaufwand": "Personnel expenses",
    "Löhne und Gehälter": "Wages and salaries",
    "Soziale Abgaben und Aufwendungen für Altersversorgung und für Unterstützung": (
        "Social security, pensions and other benefits"
    ),
    "Soziale Abgaben": "Social security contributions",
    "Abschreibungen": "Depreciation and amortisation",
    "Abschreibungen auf immaterielle Vermögensgegenstände des Anlagevermögens und Sachanlagen": (
        "Depreciation and amortisation of intangible and tangible assets"
    ),
    "Abschreibungen auf Vermögensgegenstände des Umlaufvermögens": "Write-downs of current assets",
    "Sonstige betriebliche Aufwendungen": "Other operating expenses",
    "Betriebsergebnis": "Operating result (EBIT)",
    "Erträge aus Beteiligungen": "Income from participations",
    "Erträge aus anderen Wertpapieren und Ausleihungen des Finanzanlagevermögens": (
        "Income from other securities and long-term loans"
    ),
    "Sonstige Zinsen und ähnliche Erträge": "Other interest and similar income",
    "Zinserträge": "Interest income",
    "Abschreibungen auf Finanzanlagen und auf Wertpapiere des Umlaufvermögens": (
        "Write-downs of financial assets and current securities"
    ),
    "Abschreibungen auf Finanzanlagen": "Write-downs of financial assets",
    "Zinsen und ähnliche Aufwendungen": "Interest and similar expenses",
    "Zinsaufwendungen": "Interest expenses",
    "Erträge aus Gewinnabführungsverträgen": "Income from profit transfer agreements",
    "Aufwendungen aus Verlustübernahme": "Expenses from loss absorption",
    "Aufgrund eines Gewinnabführungsvertrags abgeführte Gewinne": "Profits transferred under a transfer agreement",
    "Finanzergebnis": "Financial result",
    "Ergebnis der gewöhnlichen Geschäftstätigkeit": "Result from ordinary activities",
    "Ergebnis vor Steuern": "Income before taxes",
    "Steuern vom Einkommen und vom Ertrag": "Income taxes",
    "Steuern vom Einkommen und Ertrag": "Income taxes",
    "Ergebnis nach Steuern": "Income after taxes",
    "Sonstige Steuern": "Other taxes",
    "Provisionserträge": "Commission income",
    "Provisionsaufwendungen": "Commission expenses",
    "Auf nicht beherrschende Anteile entfallendes Ergebnis": "Result attributable to non-controlling interests",
    "Konzernjahresüberschuss": "Consolidated net income",
    "Konzernjahresüberschuss/-fehlbetrag": "Consolidated net income / net loss",
}

_ORDINAL = re.compile(r"^\s*(?:[A-Z]\.|[IVX]+\.|\d+\.|[a-z]\)|[a-z]{1,2}\.)\s+")


def _bare(term: str) -> str:
    """A line item's term without its ordinals (``"A. I. 1. Grundstücke"`` → ``"Grundstücke"``), spaces folded."""
    text = " ".join(term.split())
    while True:
        stripped = _ORDINAL.sub("", text, count=1)
        if stripped == text:
            return text
        text = stripped


def _layout_labels() -> dict[str, str]:
    """The labels of :mod:`regkit.schema.statements`, by ``"<statement>:<term>"`` and by the term alone."""
    out: dict[str, str] = {}
    for statement, lines in STATEMENTS.items():
        for short in (False, True):
            for _, line in walk_lines(lines, short):
                term = _bare(line.name).casefold()
                out.setdefault(f"{statement}:{term}", line.label)
                out.setdefault(term, line.label)
    return out


_FOLDED = {_bare(german).casefold(): english for german, english in LINE_ITEM_LABELS.items()}
_LAYOUT = _layout_labels()


def line_item_label(name: str, formatted_name: str | None = None, statement: str | None = None) -> str:
    """The English label of an HGB line item, by its German ``name`` (or, failing that, ``formatted_name``).

    The register's layout (:mod:`regkit.schema.statements`) is asked first — within ``statement`` (``"aktiva"``,
    ``"passiva"``, ``"guv"``) when given, since one term can name an item on both sides
    (Rechnungsabgrenzungsposten) — then :data:`LINE_ITEM_LABELS`. Ordinals (``A.``, ``II.``, ``3.``, ``a)``),
    case and repeated spaces do not matter. A term without a label is given back without its ordinal: a table
    shows the German term rather than nothing.

    Examples
    --------
    >>> line_item_label("Anlagevermögen"), line_item_label("A. Eigenkapital")
    ('Fixed assets', 'Equity')
    >>> line_item_label("Rechnungsabgrenzungsposten", statement="passiva")
    'Deferred income'
    >>> line_item_label("x_unknown_key", "II. Kapitalrücklage"), line_item_label("Geschäfts- oder Firmenwert")
    ('Capital reserves', 'Goodwill')
    >>> line_item_label("Ein neuer Posten")
    'Ein neuer Posten'
    """
    for term in (name, formatted_name):
        if term:
            bare = _bare(term).casefold()
            for key in (f"{statement}:{bare}" if statement else None, bare):
                label = _LAYOUT.get(key) if key else None
                if label is not None:
                    return label
            label = _FOLDED.get(bare)
            if label is not None:
                return label
    return _bare(formatted_name or name) if (formatted_name or name) else ""


# -- Relations between companies (issue 25: the explorers' links tab) ----------------------------------------
#: How a relation of :func:`regkit.frames.links` and :data:`regkit.graph.RELATIONS` reads: English, with the
#: register's German term where it names a legal act a reader may look up.
RELATION_LABELS: dict[str, str] = {
    "merger": "merger (Verschmelzung)",
    "spin_off": "spin-off (Abspaltung)",
    "profit_transfer": "profit-transfer agreement (Ergebnisabführungsvertrag)",
    "ownership": "ownership",
    "representation": "representation",
}
LABELS.setdefault("relation", RELATION_LABELS)
COLUMN_LABELS.setdefault("relation", "Relation")
__all__ += ["RELATION_LABELS"]

# --- group drawings (regkit.plot.group, issue 25) ---------------------------------------------------------
#: A person's role as the line from the person to a company reads in a group drawing: English, with the
#: German register term as a gloss where it carries meaning.
GROUP_ROLE_LABELS: dict[str, str] = {
    "DIRECTOR": "director",
    "PROKURA": "authorised signatory (Prokura)",
    "SHAREHOLDER": "shareholder",
    "PERSONAL_LIABLE_DIRECTOR": "general partner (phG)",
    "OWNER": "owner",
    "PARTNER": "partner",
    "LIQUIDATOR": "liquidator",
    "OTHER": "other role",
}

#: The relations between companies as a group drawing labels them (legend and lines).
GROUP_LINK_LABELS: dict[str, str] = {
    "merger": RELATION_LABELS["merger"],
    "spin_off": RELATION_LABELS["spin_off"],
    "profit_transfer": RELATION_LABELS["profit_transfer"],
    "shareholder": "shareholding",
    "general_partner": "general partner (phG)",
}
