"""Finding, verifying and loading the bundled weights, each engine behind a small interface."""

import os

# Nothing in Hearth may reach a model hub: every model is a local file.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
# Nor draw a library's progress bar on the person's terminal ("Loading weights: 100%|███…" as the
# embedder loads): Hearth reports each model ready on its own status lines.
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

# The engines run beside each other on few cores (Whisper beside the language model, the embedder
# beside both). OpenMP threads that spin long while they wait for work take the core from whichever
# engine has real work: with the soak running beside it, a query embedding took p50 43 / p95 536 ms
# with libgomp's default spinning and 26 / 35 ms sleeping at once. Read when torch and CTranslate2
# load, hence here, at import.
# llama.cpp (sharing torch's OpenMP runtime) meets an OpenMP barrier after every operation of every
# token, and a thread put to sleep at each one makes generation half as fast (69 ms a token with no
# spinning, 34 ms spinning 3000 times, about 0.1 ms, before sleeping), while spinning that briefly
# costs the other engines nothing (the query embedding took 12 ms against 15).
os.environ.setdefault("GOMP_SPINCOUNT", "3000")
# "Active" with that count still spins at most that long. It matters where libgomp manages more
# threads than there are cores (each thread that runs torch or llama.cpp gets its own team): it then
# spins only its "throttled" count, 1000 when active and none at all when passive (libgomp's env.c).
# Measured with passive: a token took 35 ms instead of 22 once Whisper had run, and stayed so; in the
# latency benchmark the first clause took p50 72 ms a word to generate and voice (three runs) against
# 56 active (two). No thread spins when idle either way.
os.environ.setdefault("OMP_WAIT_POLICY", "ACTIVE")
# oneDNN (inside torch) keeps compiled kernels for up to 1024 input shapes, and every sentence length
# is a new shape: the text embedder alone in a loop grew 171 MB in 90 s, 86 MB with this cap.
os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "8")


class ModelError(Exception):
    """A model file that is missing, damaged or cannot be loaded; the message is one line."""
