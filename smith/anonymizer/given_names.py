"""Which words are people's given names: the name list both the anonymizer and the leak scan use.

The list is `gender-guesser`'s dictionary of about 48,000 first names with their frequency by
country, cut to the names in use in Great Britain, Ireland, the USA, Italy, Portugal, Spain, France,
Germany, the Arab countries or India (about 15,500: residents' families and visitors come from
everywhere), less the words that are more often something else in our texts: days and months,
places that are also names, and plain English and Spanish words. The list is data shared by the two
sides; how each side looks for names in a text is its own.
"""

from __future__ import annotations

import functools
from importlib import resources

from cerebrus.text.folding import fold

__all__ = ["is_given_name", "is_other_word"]

# The dictionary's columns: a name in columns 3-28, then one frequency digit (hex) per country.
_NAME_COLUMNS = slice(3, 29)
_FIRST_COUNTRY_COLUMN = 30
_COUNTRIES = (0, 1, 2, 3, 5, 6, 7, 12, 47, 50)  # GB, IE, US, IT, PT, ES, FR, DE, Arabia, India


def _words(text: str) -> list[str]:
    return text.split()


_NOT_NAMES_HERE = frozenset(
    _words(
        """
        mon tue wed thu fri sat sun lun mar mie jue vie sab dom monday tuesday wednesday thursday friday
        saturday sunday lunes martes miercoles jueves viernes sabado domingo january february march april
        may june july august september october november december enero febrero marzo abril mayo junio julio
        agosto septiembre octubre noviembre diciembre america aspen glen magnolia willow phoenix austin
        houston denver columbus dallas jackson madison lincoln orlando camellia birch birchwood oakridge
        lampliter laurel sierra vista rio san santa del las los will key con hope faith joy summer winter
        autumn spring art guy sue bill mark pat star sky river forest stone page hall price rice king queen
        prince major clara perfecto perfecta bueno buena claro gracias hola dios amor paz luz sol noel ave
        come angeles just van von ok hi else mo len fee line trace judge lane fine tell said edit skip al
        non chance meta po este esta don una dot tab rush constant cierra firmo les curt nan chip haven hay
        win buck reed robin young long love misty sunny honey candy cherry red blue green brown white black
        gray grey gold silver ask call text send let see say get go new best fair early late north south
        east west kit france india china paris london
        """
    )
)


@functools.cache
def _names() -> frozenset[str]:
    source = resources.files("gender_guesser") / "data" / "nam_dict.txt"
    names: set[str] = set()
    for line in source.read_text(encoding="utf-8").splitlines():
        if not line or line[0] in "#=":
            continue
        frequencies = line[_FIRST_COUNTRY_COLUMN:]
        in_use = any(index < len(frequencies) and frequencies[index].strip() for index in _COUNTRIES)
        name = line[_NAME_COLUMNS].strip()
        if in_use and name and "+" not in name:
            names.add(fold(name))
    return frozenset(names - _NOT_NAMES_HERE)


def is_given_name(word: str) -> bool:
    """Whether a single word (any case, with or without accents) is a given name on the list."""
    return fold(word) in _names()


def is_other_word(word: str) -> bool:
    """Whether a word is one the list leaves out as more often something else (`Monday`, `Will`)."""
    return fold(word) in _NOT_NAMES_HERE
