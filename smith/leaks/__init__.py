"""The leak scan (docs/fixtures.md): what of the original conversation an anonymized fixture still holds.
Independent of the anonymizer's code; it reads only its data (the given names and pseudonyms)."""

from smith.leaks.scan import Leak, LeakKind, LeakWatchlist, describe_leaks, find_leaks

__all__ = ["Leak", "LeakKind", "LeakWatchlist", "describe_leaks", "find_leaks"]
