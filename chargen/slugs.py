"""ASCII slugs of the documents' words, as the contract makes keys and choice values.

`normalize("Vanaætlinge")` is "vanaaetlinge", `normalize("nagyon-szívós")` is
"nagyon_szivos": case folded, diacritics dropped (æ -> ae, ø ö ő -> o, é -> e),
every run of other characters one underscore.
"""

from __future__ import annotations

import re
import unicodedata

_FOLD = str.maketrans({"æ": "ae", "ø": "o", "œ": "oe", "ß": "ss", "ð": "d", "þ": "th", "ł": "l"})
_OTHER = re.compile(r"[^0-9a-z]+")


def normalize(value: object) -> str:
    """A user's choice (or a display word) as a slug."""
    text = unicodedata.normalize("NFKD", str(value).strip().lower().translate(_FOLD))
    text = "".join(c for c in text if not unicodedata.combining(c))
    return _OTHER.sub("_", text).strip("_")


def unbroken(value: object) -> str:
    """`normalize` without its word breaks ("gruv-arbetare", "Gruv arbetare" ->
    "gruvarbetare"): how a choice written with or without them is matched."""
    return normalize(value).replace("_", "")
