"""Hand freed heap memory back to the system between turns.

The models allocate and free large buffers every turn from several threads, and glibc keeps much
of what is freed in per-thread arenas: in an hour-long soak resident memory grew about 270 MB an
hour, and one trim after 15 turns gave back 100 MB. (The other growers: oneDNN's kernel cache,
capped in `models/__init__.py`; llama-cpp-python's samplers, freed in `models/llm_local.py`; and Piper's
onnxruntime arena, kept small by voicing at most 20 words at a time in `models/tts.py`.)
"""

from __future__ import annotations

import ctypes
import ctypes.util

_trim = None


def _malloc_trim():
    global _trim
    if _trim is None:
        try:
            _trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to give back this way
            _trim = False
    return _trim


def release_free_memory() -> None:
    trim = _malloc_trim()
    if trim:
        trim(0)
