"""`LanguageCode`: an ISO 639-1 code the language detector knows, for the rule models that name one.

Apart from `cerebrus.text.language` so that loading rules does not load the detector's models: the
check imports it only when a rule names a language.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator


def _known(code: str) -> str:
    from cerebrus.text.language import supported

    if not supported(code):
        raise ValueError(f"unknown ISO 639-1 language code: {code}")
    return code.lower()


LanguageCode = Annotated[str, AfterValidator(_known)]
