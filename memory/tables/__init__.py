"""The memory store's tables, a module for each group and each the one writer of its tables;
MemoryStore (memory/store.py) is all of them over one connection."""
