"""Memory: one SQLite file (with sqlite-vec) holding what each person said and what Hearth made of it.

Left brain: schema -> entity -> item (versioned, updated by generation). Right brain: persona nodes.
`open_store(data_dir, embedder)` opens the store; `PersonMemory` is the voice loop's view of one person.
"""

from .errors import MemoryStoreError
from .store import MemoryStore
from .turns import PersonMemory, open_store

__all__ = ["MemoryStore", "MemoryStoreError", "PersonMemory", "open_store"]
