"""The voice loop: frames in, turns found, answered and spoken (loop.py wires the stages)."""
