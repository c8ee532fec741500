"""Structured information (SI): the register entry's fields as XML, built with :mod:`xml.etree.ElementTree`.

The document is UTF-8 with an XML declaration, indented with two spaces, its elements always in the same order
and every value text (dates ``YYYY-MM-DD``, amounts with two decimals): the same record and date give the same
bytes. The shape (ours, after the register's XJustiz export, simplified)::

    <?xml version='1.0' encoding='UTF-8'?>
    <registereintrag id="DE-HRB-..." stand="2026-06-30">
      <register gericht="Amtsgericht Aachen" art="HRB" nummer="94644" seit="2018-01-20"/>
      <firma rechtsform="gmbh" seit="2020-06-28">Gerber Dienstleistungen GmbH</firma>
      <sitz ort="Aachen" plz="52080" strasse="Kirchstraße 175" seit="2018-01-20"/>
      <gegenstand seit="...">...</gegenstand>
      <kapital waehrung="EUR" seit="2020-06-28">25000.00</kapital>
      <vertretungsregelung>...</vertretungsregelung>
      <status>active</status>
      <eintragung>2018-01-20</eintragung>
      <loeschung/>
      <beteiligte>
        <beteiligter id="..." rolle="DIRECTOR" art="natural_person" seit="..." bis="...">
          <name>...</name><vorname/><nachname/><geburtsdatum/><wohnort/><vertretungsbefugnis/>
        </beteiligter>
      </beteiligte>
      <fruehere_firmen><firma .../></fruehere_firmen>
    </registereintrag>
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from .register_files import company_as_of

__all__ = ["structured_information_xml"]


def _attrs(**values: Any) -> dict[str, str]:
    """Attributes with a value (``None`` and empty left out), as text."""
    return {key: str(value) for key, value in values.items() if value not in (None, "")}


def _text(parent: ET.Element, tag: str, value: Any, **attributes: Any) -> ET.Element:
    element = ET.SubElement(parent, tag, _attrs(**attributes))
    if value not in (None, ""):
        element.text = str(value)
    return element


def structured_information_xml(company: Mapping[str, Any], file_date: str) -> bytes:
    """The structured information of ``company``'s entry as it stands on ``file_date``, as UTF-8 XML bytes.

    Examples
    --------
    >>> xml = structured_information_xml({"id": "DE-HRB-F1103-1", "name": {"name": "Muster GmbH"}}, "2026-06-30")
    >>> xml.splitlines()[0]
    b"<?xml version='1.0' encoding='UTF-8'?>"
    """
    state = company_as_of(company, file_date)
    root = ET.Element("registereintrag", _attrs(id=company.get("id"), stand=file_date))
    register = state["register"]
    ET.SubElement(
        root,
        "register",
        _attrs(
            gericht=register.get("register_court"),
            art=register.get("register_type"),
            nummer=register.get("register_number"),
            seit=register.get("start_date"),
        ),
    )
    name = state["name"]
    _text(root, "firma", name.get("name"), rechtsform=name.get("legal_form"), seit=name.get("start_date"))
    address = state["address"] or {}
    ET.SubElement(
        root,
        "sitz",
        _attrs(
            ort=address.get("city"),
            plz=address.get("postal_code"),
            strasse=address.get("street"),
            land=address.get("country"),
            seit=address.get("start_date"),
        ),
    )
    purpose = state["purpose"] or {}
    _text(root, "gegenstand", purpose.get("purpose"), seit=purpose.get("start_date"))
    capital = state["capital"] or {}
    amount = capital.get("amount")
    _text(
        root,
        "kapital",
        None if amount is None else f"{float(amount):.2f}",
        waehrung=capital.get("currency"),
        seit=capital.get("start_date"),
    )
    _text(root, "vertretungsregelung", company.get("representation_rule"))
    _text(root, "status", company.get("status"))
    _text(root, "eintragung", company.get("incorporated_at"))
    _text(root, "loeschung", company.get("terminated_at"))
    people = ET.SubElement(root, "beteiligte")
    for entry in state["representation"]:
        person = entry.get("natural_person") or {}
        legal = entry.get("legal_person") or {}
        element = ET.SubElement(
            people,
            "beteiligter",
            _attrs(
                id=entry.get("id"),
                rolle=entry.get("role"),
                art=entry.get("type"),
                seit=entry.get("start_date"),
                bis=entry.get("end_date"),
            ),
        )
        _text(element, "name", entry.get("name"))
        if entry.get("type") == "natural_person":
            _text(element, "vorname", person.get("first_name"))
            _text(element, "nachname", person.get("last_name"))
            _text(element, "geburtsdatum", person.get("date_of_birth"))
            _text(element, "wohnort", person.get("city"))
        else:
            _text(element, "sitz", legal.get("city"), land=legal.get("country"))
        _text(element, "vertretungsbefugnis", entry.get("authority"))
    former = ET.SubElement(root, "fruehere_firmen")
    for old in company.get("names") or ():
        if (old.get("start_date") or "") <= file_date and old is not name and old.get("name") != name.get("name"):
            _text(former, "firma", old.get("name"), rechtsform=old.get("legal_form"), seit=old.get("start_date"))
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True) + b"\n"
