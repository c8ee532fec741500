"""Who a representative is: one node per person, also where the register gives no id.

The node of a representation entry is its *person key*, :func:`regkit.frames.identity.person_key` —
the one rule the frames use as well, so ``representatives()["id"]`` equals the node id of the same
person (pass the same ``person_city=`` to both). In short:

1. an entry with an ``id``: the node with that id. A legal person whose id is a company id
   (``DE-<type>-<court>-<number>``) is that company's node (a ``company`` node, ``fetched=False``
   unless the company itself is in the input); another id of a legal person makes a
   ``legal_person`` node, a natural person's id a ``natural_person`` node;
2. a legal person without id: the ``legal_person`` node ``legal:<name>|<city>|<country>`` (folded); it is
   never merged into a company node, even if the names agree;
3. a natural person without id: the ``natural_person`` node ``person:<name key>|<date of birth>`` — the
   name folded for case, umlauts (``Müller`` = ``Mueller``), diacritics, punctuation, titles (``Dr.``,
   ``Prof.``, ``Dipl.-Ing.``, ...) and the first/last split; without a date of birth the key holds within
   one company only, ``person:<name key>|@<company id>``. ``person_city=True`` adds the folded city
   (``person:<name key>|<date of birth>|<city>``) as a tie-breaker between namesakes born the same day.

The key depends on the entry alone: a person whom the register lists with an id at one company and
without at another is two nodes (regkit does not guess who is who across entries).
"""

from __future__ import annotations

from regkit.frames.identity import is_company_id, legal_key, name_key, normalise, person_key

__all__ = ["is_company_id", "legal_key", "name_key", "normalise", "person_key"]
