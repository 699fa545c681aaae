"""The dry-run transport shows posts and answers look-ups for recent keys, without growing for ever."""

from __future__ import annotations

from smith.transports.dry_run import DryRunTransport
from tests.smith.outbox.harness import plain_payload


async def test_the_dry_run_transport_remembers_only_recent_keys() -> None:
    lines: list[str] = []
    transport = DryRunTransport(lines.append, recent_keys=10)
    sent = {
        key: await transport.post("C0DRY", plain_payload(key), thread_ts=None) for key in map(str, range(50))
    }

    for key in map(str, range(40, 50)):
        assert await transport.find_posted("C0DRY", key, thread_ts=None) == sent[key]
    assert await transport.find_posted("C0DRY", "0", thread_ts=None) is None, "the oldest keys are forgotten"
    assert any("post *49*" in line for line in lines), "every post was still shown"


async def test_a_key_used_again_counts_as_recent() -> None:
    transport = DryRunTransport(lambda line: None, recent_keys=2)
    first = await transport.post("C0DRY", plain_payload("kept"), thread_ts=None)
    await transport.post("C0DRY", plain_payload("other"), thread_ts=None)
    await transport.update("C0DRY", first, plain_payload("kept"))  # an edit refreshes the key
    await transport.post("C0DRY", plain_payload("newest"), thread_ts=None)

    assert await transport.find_posted("C0DRY", "kept", thread_ts=None) == first
    assert await transport.find_posted("C0DRY", "other", thread_ts=None) is None
