"""Properties and the Slack channel each one's posts go to."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, col, select

from gradecore.model.contract import check_timezone
from gradecore.persistence.entities import Property, utcnow
from gradecore.persistence.store.errors import UnknownProperty
from gradecore.persistence.store.inserts import insert_if_absent


class PropertiesRepo:
    def __init__(self, session: Session) -> None:
        self._session = session

    def get(self, property_id: str) -> Property | None:
        return self._session.get(Property, property_id)

    def require(self, property_id: str) -> Property:
        found = self.get(property_id)
        if found is None:
            raise UnknownProperty(property_id)
        return found

    def list(self) -> Sequence[Property]:
        return self._session.exec(select(Property).order_by(col(Property.id))).all()

    def with_channel(self) -> Sequence[Property]:
        query = select(Property).where(col(Property.slack_channel_id).is_not(None)).order_by(col(Property.id))
        return self._session.exec(query).all()

    def set(
        self,
        property_id: str,
        *,
        name: str | None = None,
        timezone: str | None = None,
        locale: str | None = None,
        channel_id: str | None = None,
    ) -> Property:
        """Create or update; creating needs a name and a timezone."""
        found = self.get(property_id)
        if found is None:
            if name is None or timezone is None:
                raise UnknownProperty(property_id)
            found = Property(
                id=property_id, name=name, timezone=check_timezone(timezone), locale=locale or "en"
            )
        if name is not None:
            found.name = name
        if timezone is not None:
            found.timezone = check_timezone(timezone)
        if locale is not None:
            found.locale = locale
        if channel_id is not None:
            found.slack_channel_id = channel_id or None
        found.updated_at = utcnow()
        self._session.add(found)
        self._session.flush()
        return found

    def ensure(self, property_id: str, *, name: str, timezone: str, locale: str) -> Property:
        """Register a property first seen in an ingested document (no channel yet: its posts park).

        Two replicas may see a new property's first documents at once: the second insert is a no-op.
        """
        found = self.get(property_id)
        if found is not None:
            return found
        fresh = Property(id=property_id, name=name, timezone=check_timezone(timezone), locale=locale)
        insert_if_absent(self._session, fresh)
        return self.require(property_id)
