"""Names told apart: a second "Knights of the Realm" is "Knights of the Realm (2)"."""

from __future__ import annotations

from collections.abc import Iterable

NAME_LIMIT = 200  # the store's longest army, unit and battle name


def numbered_name(name: str, taken: Iterable[str], limit: int = NAME_LIMIT) -> str:
    """`name`, or "Name (2)", "Name (3)" and on when one of `taken` has it already
    (ignoring case), within `limit` characters."""
    folded = {other.casefold() for other in taken}
    candidate, number = name, 1
    while candidate.casefold() in folded:
        number += 1
        suffix = f" ({number})"
        candidate = name[:limit - len(suffix)] + suffix
    return candidate
