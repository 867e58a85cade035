"""The command line and its modes: live, replay, demo, and the people commands."""
