"""Finds the item an act is about: the Smith post it reacts to (or replies under) and its latest grade.

Reads only the columns acting needs: a post's payload and a grade's dimensions are large JSON that
processing never looks at. A posted message's identity — (channel, ts) → conversation, turn,
property — never changes once Slack has given it a ts, so it is remembered; grades are regraded and
are read afresh (once per batch of events).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from gradecore.persistence.store import Unit
from gradecore.persistence.store.outbox import PostRef
from smith.listening.acts import ItemType, Target

_TURN_REFERENCE = re.compile(r"\bturno?\s*#?\s*(\d{1,3})\b", re.IGNORECASE)


@dataclass(frozen=True)
class Located:
    """The item an act is about, and its grade as the person saw it (frozen)."""

    target: Target
    machine: dict[str, Any]


class Locator:
    def __init__(self, *, max_posts: int = 8192) -> None:
        self._posts: dict[tuple[str, str], PostRef] = {}
        self._max_posts = max_posts

    def post(self, unit: Unit, channel: str, ts: str) -> PostRef | None:
        """The Smith post Slack knows as (channel, ts). Only found posts are remembered: a post not
        yet known (its ts not yet saved) may be known a moment later."""
        found = self._posts.get((channel, ts))
        if found is not None:
            return found
        found = unit.outbox.ref_by_channel_ts(channel, ts)
        if found is None:
            return None
        if len(self._posts) >= self._max_posts:
            self._posts.clear()  # a crude bound; misses only cost a query
        self._posts[(channel, ts)] = found
        return found

    def locate(
        self,
        unit: Unit,
        grades: LatestGrades,
        channel: str,
        ts: str,
        reply_ts: str | None = None,
        text: str = "",
    ) -> Located | None:
        """The item a reaction (on `ts`) or a thread reply (under `ts`) is about."""
        post = self.post(unit, channel, ts)
        if post is None or post.kind not in ("conversation", "turn"):
            return None
        if reply_ts is not None:
            post = _post_replied_to(unit, post, reply_ts, text)
        item_type: ItemType = "turn" if post.kind == "turn" else "conversation"
        assert post.conversation_id is not None and post.property_id is not None
        target = Target(item_type, post.conversation_id, post.turn_id, post.property_id)
        machine = grades.latest(unit, item_type, target.ref)
        return None if machine is None else Located(target, machine)


class LatestGrades:
    """Items' latest grades (frozen), each read once per transaction however many acts it has."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], dict[str, Any] | None] = {}

    def latest(self, unit: Unit, item_type: str, ref: str) -> dict[str, Any] | None:
        key = (item_type, ref)
        if key not in self._seen:
            self._seen[key] = unit.grades.latest_frozen(item_type, ref)
        return self._seen[key]

    @staticmethod
    def shown(unit: Unit, grade_id: str) -> dict[str, Any] | None:
        """One grade by id (the one a correction modal was opened on), frozen."""
        return unit.grades.frozen(grade_id)


def _post_replied_to(unit: Unit, parent: PostRef, reply_ts: str, text: str) -> PostRef:
    """A reply is about the Smith post just above it, unless it names a turn ("turn 2")."""
    posts = [post for post in unit.outbox.thread_refs(parent.id) if float(post.ts or 0) < float(reply_ts)]
    if not posts:
        return parent
    named = _TURN_REFERENCE.search(text)
    if named is not None:
        document = unit.conversations.get(parent.conversation_id or "")
        turn_ids = [turn["id"] for turn in (document.document.get("turns") or [])] if document else []
        wanted = int(named.group(1))
        if 1 <= wanted <= len(turn_ids):
            for post in posts:
                if post.turn_id == turn_ids[wanted - 1]:
                    return post
            # A turn past the thread's bound has no reply of its own (it is listed in the last one):
            # the reply is still about that turn.
            return replace(parent, kind="turn", turn_id=turn_ids[wanted - 1])
    return posts[-1]
