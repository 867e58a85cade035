"""Whose memory a turn uses (routing.py) and memory as the loop uses it."""
