"""Finding, verifying and loading the bundled weights, each engine behind a small interface."""

import os

# Nothing in Hearth may reach a model hub: every model is a local file.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")


class ModelError(Exception):
    """A model file that is missing, damaged or cannot be loaded; the message is one line."""
