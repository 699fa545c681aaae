"""The judge lane: `tone` and `pacing` scored 0–3 by Claude, receipt required, advisory until calibrated.

Build a `JudgeLane` from a `JudgeConfig` (off without an API key), then either call
`lane.judge_conversation(conversation)` for the `judged` mapping the engine takes, or
`grade_with_judge(conversation, lane)` for a full grade.
"""

from cerebrus.judge.config import JudgeConfig
from cerebrus.judge.grading import grade_with_judge
from cerebrus.judge.lane import JudgeLane, JudgeResult, failure_cause
from cerebrus.judged_dimensions import JUDGED_DIMENSIONS, LEVEL_BY_SCORE

__all__ = [
    "JUDGED_DIMENSIONS",
    "LEVEL_BY_SCORE",
    "JudgeConfig",
    "JudgeLane",
    "JudgeResult",
    "failure_cause",
    "grade_with_judge",
]
