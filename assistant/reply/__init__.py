"""What a reply says: the prompt, the prompt cache, and the checks on the words voiced."""
