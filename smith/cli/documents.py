"""Reading conversation documents from a file or stdin: one JSON document, a JSON array, or JSONL."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from gradecore.errors import SmithError
from gradecore.model.contract import (
    ContractViolation,
    Conversation,
    parse_conversation,
    validate_conversation,
)


class UnreadableInput(SmithError):
    """The input could not be read at all (missing file, not JSON)."""


@dataclass(frozen=True)
class ParsedDocument:
    """One document from the input: a conversation, or the violation that rejected it."""

    where: str  # "FILE" or "FILE line 3", for the error line
    conversation: Conversation | None
    violation: ContractViolation | None


def read_source(source: str) -> tuple[str, bytes]:
    if source == "-":
        return "stdin", sys.stdin.buffer.read()
    path = Path(source)
    try:
        return path.name, path.read_bytes()
    except FileNotFoundError:
        raise UnreadableInput(f"no such file: {source}") from None
    except IsADirectoryError:
        raise UnreadableInput(f"{source} is a directory, not a JSON or JSONL file") from None
    except OSError as exc:
        raise UnreadableInput(f"cannot read {source}: {exc.strerror}") from None


DOCUMENT_SUFFIXES = (".json", ".jsonl")


def expand_sources(sources: Sequence[str]) -> list[str]:
    """Files as given, `-` for stdin, and each directory's .json/.jsonl files (recursively, sorted)."""
    expanded: list[str] = []
    for source in sources:
        path = Path(source)
        if source != "-" and path.is_dir():
            found = sorted(str(p) for p in path.rglob("*") if p.is_file() and p.suffix in DOCUMENT_SUFFIXES)
            if not found:
                raise UnreadableInput(f"{source} holds no .json or .jsonl file")
            expanded.extend(found)
        else:
            expanded.append(source)
    if expanded.count("-") > 1:
        raise UnreadableInput("stdin (-) can be read only once")
    return expanded


def read_documents(sources: Sequence[str]) -> list[ParsedDocument]:
    """Every document of every source, in order; a file read alone is named by its name, one of
    several by its path (two folders may both hold a `rent.json`)."""
    expanded = expand_sources(sources)
    documents: list[ParsedDocument] = []
    for source in expanded:
        name, raw = read_source(source)
        documents.extend(parse_documents(name if len(expanded) == 1 or source == "-" else source, raw))
    return documents


def parse_documents(name: str, raw: bytes) -> Iterator[ParsedDocument]:
    """Split the input into documents and validate each against the contract."""
    stripped = raw.strip()
    if not stripped:
        raise UnreadableInput(f"{name} is empty")
    if stripped.startswith(b"["):
        try:
            items = json.loads(stripped)
        except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, an integer over 4,300 digits
            raise UnreadableInput(f"{name} is not valid JSON: {exc}") from None
        except RecursionError:
            # Python's decoder stops near 1,000 levels with a RecursionError, not a JSONDecodeError.
            raise UnreadableInput(f"{name} is nested too deeply to be a conversation document") from None
        for index, item in enumerate(items):
            yield _validated(f"{name} item {index}", item)
        return
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) == 1 or not all(line.lstrip().startswith(b"{") for line in lines):
        # A single (possibly pretty-printed) JSON document.
        yield _parsed(name, stripped)
        return
    for number, line in enumerate(stripped.splitlines(), start=1):
        if line.strip():
            yield _parsed(f"{name} line {number}", line)


def _parsed(where: str, raw: bytes) -> ParsedDocument:
    try:
        return ParsedDocument(where, parse_conversation(raw), None)
    except ContractViolation as violation:
        return ParsedDocument(where, None, violation)


def _validated(where: str, data: object) -> ParsedDocument:
    try:
        return ParsedDocument(where, validate_conversation(data), None)
    except ContractViolation as violation:
        return ParsedDocument(where, None, violation)
    except RecursionError:
        return ParsedDocument(where, None, ContractViolation([("$", "nested too deeply")]))
