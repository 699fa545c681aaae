"""The anonymizer (docs/fixtures.md): a conversation with every person, place, number and identifier
replaced by stable pseudonyms, pure and deterministic."""

from smith.anonymizer.anonymize import AnonymizationError, AnonymizedConversation, UnknownTurn, anonymize

__all__ = ["AnonymizationError", "AnonymizedConversation", "UnknownTurn", "anonymize"]
