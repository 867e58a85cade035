"""Hearth's word rules, shared by the loop, memory and the engines (text/words.py)."""
