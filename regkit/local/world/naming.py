"""Generated company names, purposes and contact data (fictional; the reserved `.example` domain)."""

from __future__ import annotations

import random
import re
import unicodedata

__all__ = [
    "LEGAL_FORM_SUFFIX",
    "STEM_PREFIXES",
    "STEM_SUFFIXES",
    "company_stem",
    "full_name",
    "purpose_text",
    "sector_word",
    "slug",
]

#: How a legal form appears at the end of a registered name.
LEGAL_FORM_SUFFIX = {
    "gmbh": "GmbH",
    "ug": "UG (haftungsbeschränkt)",
    "ggmbh": "gGmbH",
    "ag": "AG",
    "se": "SE",
    "kgaa": "GmbH & Co. KGaA",
    "kg": "GmbH & Co. KG",
    "ohg": "OHG",
    "ek": "e.K.",
    "eg": "eG",
    "ev": "e.V.",
    "gbr": "GbR",
    "ewiv": "EWIV",
    "llp": "LLP",
    "unknown": "Partnerschaft mbB",
    "foreign": "Ltd. Zweigniederlassung Deutschland",
    "municipal": "AöR",
}

#: The parts invented company names (and the names of groups beyond the thirty listed) are made of.
STEM_PREFIXES = (
    "Nord",
    "Süd",
    "West",
    "Ost",
    "Alpen",
    "Rhein",
    "Elb",
    "Main",
    "Isar",
    "Hanse",
    "Weser",
    "Mosel",
    "Inno",
    "Sol",
    "Terra",
    "Aqua",
    "Vita",
    "Lux",
    "Nova",
    "Opti",
    "Medi",
    "Data",
    "Grün",
    "Blau",
    "Kron",
    "Falken",
    "Linden",
    "Eichen",
    "Tannen",
    "Stern",
    "Sonnen",
    "Berg",
    "Tal",
    "Wald",
    "See",
)
STEM_SUFFIXES = (
    "wind",
    "tec",
    "form",
    "plan",
    "werk",
    "haus",
    "line",
    "net",
    "vision",
    "sys",
    "med",
    "log",
    "con",
    "punkt",
    "feld",
    "blick",
    "quelle",
    "bogen",
    "kraft",
    "licht",
    "stein",
    "hof",
    "brücke",
)

#: Words that fit a WZ division (the first two digits of a code), for names that say what a firm does.
_DIVISION_WORDS = {
    "10": ("Feinkost", "Bäckerei", "Fleischwaren"),
    "25": ("Metallbau", "Stahlbau", "Präzisionsteile"),
    "28": ("Maschinenbau", "Anlagenbau"),
    "41": ("Bau", "Wohnbau", "Projektbau"),
    "42": ("Tiefbau", "Straßenbau"),
    "43": ("Elektrotechnik", "Haustechnik", "Dachbau", "Malerbetrieb"),
    "45": ("Autohaus", "Kfz-Service"),
    "46": ("Großhandel", "Handelsgesellschaft", "Import Export"),
    "47": ("Handel", "Fachhandel", "Einzelhandel"),
    "49": ("Logistik", "Transporte", "Spedition"),
    "52": ("Lagerlogistik", "Umschlag"),
    "55": ("Hotel", "Gästehaus"),
    "56": ("Gastronomie", "Catering"),
    "62": ("Software", "IT-Systeme", "Digital"),
    "63": ("Datendienste", "Cloud Services"),
    "64": ("Beteiligungen", "Finanz"),
    "68": ("Immobilien", "Grundbesitz", "Hausverwaltung"),
    "69": ("Steuerberatung", "Rechtsanwälte"),
    "70": ("Consulting", "Unternehmensberatung", "Holding"),
    "71": ("Ingenieurbüro", "Planung"),
    "73": ("Werbeagentur", "Marketing"),
    "77": ("Vermietung", "Leasing"),
    "78": ("Personalservice", "Zeitarbeit"),
    "81": ("Gebäudeservice", "Facility Management"),
    "86": ("Pflegedienst", "Praxis", "Gesundheitszentrum"),
    "87": ("Seniorenpflege", "Wohnpflege"),
    "93": ("Sport", "Freizeit"),
    "96": ("Dienstleistungen", "Service"),
}
_GENERIC_WORDS = ("Service", "Dienstleistungen", "Handel", "Consulting", "Projekte", "Management")


def sector_word(rng: random.Random, wz_code: str) -> str:
    """A word that says what a firm in WZ class ``wz_code`` does."""
    words = _DIVISION_WORDS.get(wz_code[:2], _GENERIC_WORDS)
    return words[rng.randrange(len(words))]


def company_stem(rng: random.Random, last_names: list[str], city: str) -> str:
    """The distinctive part of a company name (before the sector word and the legal form)."""
    roll = rng.random()
    if roll < 0.35:
        return last_names[0]
    if roll < 0.45:
        return f"{last_names[0]} & {last_names[1]}"
    if roll < 0.85:
        return STEM_PREFIXES[rng.randrange(len(STEM_PREFIXES))] + STEM_SUFFIXES[rng.randrange(len(STEM_SUFFIXES))]
    if roll < 0.93:
        return "".join(rng.choice("ABCDEFGHKLMNPRSTW") for _ in range(rng.randint(2, 3)))
    return city.split(" ")[0].split("(")[0]


def full_name(stem: str, word: str, legal_form: str, owner: str | None = None) -> str:
    """The registered name: stem, sector word and the legal form's designation."""
    if legal_form == "ek":
        return f"{stem} {word} Inh. {owner} e.K." if owner else f"{stem} {word} e.K."
    if legal_form == "ev":
        return f"Förderverein {stem} e.V."
    if legal_form == "eg":
        return f"{stem} {word} eG"
    if legal_form == "municipal":
        return f"Kommunale Dienste {stem} AöR"
    if legal_form == "kg" and stem.count(" ") == 0 and word in {"Beteiligungen", "Holding"}:
        return f"{stem} {word} KG"
    if legal_form == "foreign":
        return f"{stem} {word} Ltd. Zweigniederlassung Deutschland"
    return f"{stem} {word} {LEGAL_FORM_SUFFIX[legal_form]}"


def purpose_text(title: str, legal_form: str) -> str:
    """A registered business purpose built from the WZ title of the firm's main activity."""
    if legal_form == "ev":
        return f"Zweck des Vereins ist die Förderung von Bildung und Gemeinwohl im Bereich {title}."
    if legal_form == "eg":
        return f"Zweck der Genossenschaft ist die Förderung ihrer Mitglieder durch gemeinschaftlichen Geschäftsbetrieb im Bereich {title}."
    return (
        f"Gegenstand des Unternehmens ist die Tätigkeit im Bereich {title} sowie alle damit zusammenhängenden Geschäfte. "
        "Die Gesellschaft ist berechtigt, Zweigniederlassungen zu errichten und sich an anderen Unternehmen zu beteiligen."
    )


def slug(text: str) -> str:
    """A lower-case ASCII slug (umlauts folded the German way) for generated domain names."""
    folded = text.lower().replace("ä", "ae").replace("ö", "oe").replace("ü", "ue").replace("ß", "ss")
    folded = unicodedata.normalize("NFKD", folded).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-")[:40] or "firma"
