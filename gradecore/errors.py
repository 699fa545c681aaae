"""Smith's one error tree: every error Smith raises on purpose derives from `SmithError`, which carries
the exit code `smith` ends with when the error reaches the command line (told there in one line).

The root lives here, in the lowest layer, so that every layer's errors can derive from it:

    SmithError (exit 1 unless said)
    ├── ContractViolation ── DocumentTooLarge     model.contract: a document that breaks the contract
    ├── UnknownTimezone                           model.contract: not an IANA name
    ├── DatabaseError ── NotMigrated              persistence.db: unreachable, or not at the head revision
    ├── StoreError                                persistence.store.errors: DuplicateEmail, UnknownUser,
    │                                             UnknownProperty, UnknownItem, PropertyChanged,
    │                                             AppendOnlyViolation
    ├── RulesError                                cerebrus.rules: a rules file that cannot be used
    ├── PatternError ── RulePatternError          cerebrus.text.phrases, cerebrus.text.phrase_rules:
    │                                             a phrase pattern
    ├── ConfigurationError (exit 78)              smith.settings: settings that do not fit together
    │   └── TrackerSettingsError                  smith.tickets
    ├── EnvFileMissing                            smith.settings: SMITH_ENV_FILE names no file
    ├── StartupError                              Slack refused or did not answer at start-up
    ├── UnreadableInput                           a command's input could not be read at all
    ├── UserError                                 smith.cli.errors: a mistake in how smith was called
    ├── Interrupted (exit 130)                    smith.cli.output: Ctrl-C during a long job
    ├── DeliveryFailure                           smith.transports.base: RateLimited, PermanentFailure
    │                                             (JoinRequired), TransientFailure, AmbiguousFailure
    ├── TrackerError ── TrackerRateLimited        smith.tickets.tracker: the ticket tracker refused
    ├── InboxUnavailable, DirectoryUnavailable,   Slack or the database could not answer a listener
    │   MembershipUnavailable                     in time
    ├── UnclearLink, LinkRefused,                 what a person wrote or submitted in Slack
    │   UnreadableSubmission
    └── FixtureFormatError                        a file that is not a `smith.fixture/v1` document

Errors that mean Smith's own code is wrong stay outside the tree, so the command line tells them as
bugs, with their traceback (exit 70): `CheckDeclarationError` (a check declared badly),
`PostLimitError` (a built post over Slack's limits), `AnonymizationError` and its `UnknownTurn` (the
anonymizer's output breaks the contract, or it was asked for a turn that is not there).

Some classes also derive from `ValueError`, which pydantic turns into a validation error where they
are raised inside a validator.
"""

from __future__ import annotations

from typing import ClassVar

# sysexits.h: a mistake in the configuration (a setting's value, or settings that do not fit together).
EX_CONFIG = 78


class SmithError(Exception):
    """Base of every error Smith raises on purpose; its message is one line a person can act on."""

    exit_code: ClassVar[int] = 1
