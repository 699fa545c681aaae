"""The reports people read (docs/jobs.md): the daily tally, the weekly digest, the counts they share,
human/machine agreement and judge drift."""
