"""The law as data: Article IX's text, its numbers (parameters) and the Village's local settings."""
