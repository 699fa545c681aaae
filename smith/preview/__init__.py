"""`smith preview`: every post Smith would make for some conversations, on one HTML page, before Slack.

The documents are graded into a throwaway SQLite database by the real ingestor, the real relay delivers
the posts into an in-memory Slack (`workspace`), and `page` writes what that Slack shows as HTML.
"""
