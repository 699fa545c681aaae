"""Block Kit builders: pure functions from grades and conversations to `slack_sdk` block models
(docs/slack-surface.md).

Every builder returns a `PostContent` (blocks, plain-text fallback, metadata); `validate_post` refuses a
post Slack would reject, and is called before a post is queued.
"""

from blocks.common import CORRECT_GRADE_ACTION_ID, GRADE_EVENT_TYPE, PostContent
from blocks.conversation import build_conversation_blocks
from blocks.limits import PostLimitError, render_post, validate_post
from blocks.more_turns import build_more_turns_blocks
from blocks.notice import DigestLine, LinkLine, build_digest_blocks, build_notice_blocks
from blocks.tally import build_tally_blocks
from blocks.turn import build_turn_blocks

__all__ = [
    "CORRECT_GRADE_ACTION_ID",
    "GRADE_EVENT_TYPE",
    "DigestLine",
    "LinkLine",
    "PostContent",
    "PostLimitError",
    "build_conversation_blocks",
    "build_digest_blocks",
    "build_more_turns_blocks",
    "build_notice_blocks",
    "build_tally_blocks",
    "build_turn_blocks",
    "render_post",
    "validate_post",
]
