"""One exception type for problems a user can fix: its message is a single line shown as-is."""


class HearthError(Exception):
    """A problem with the user's input, devices, models or files, reported in one line."""
