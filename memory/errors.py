"""The one error the memory package raises to its callers; its message is one line."""


class MemoryStoreError(Exception):
    """The memory store cannot be opened or written: damaged, locked, too new, or unusable."""
