"""The one error the audio package raises for input and output it cannot use."""


class AudioInputError(Exception):
    """A recording or input device that cannot be used; the message is one line."""
