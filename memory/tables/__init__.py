"""The memory store's tables, a module for each group and each the one writer of its tables;
MemoryStore (memory/store.py) is all of them over one connection. The one exception is
person_rows.py, which moves or deletes everything of one person across every table (merging two
people, forgetting one)."""
