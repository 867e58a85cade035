"""Library noise kept out of the person's terminal (live mode; --debug keeps it).

PortAudio reaches the sound server through ALSA, and both write their complaints straight to file
descriptor 2, past Python: ALSA's "ALSA lib pcm.c: underrun occurred", PortAudio's "Expression
'…' failed in 'src/hostapi/alsa/pa_linux_alsa.c'" when a device goes away. ALSA takes an error
handler, which is set to one that says nothing. PortAudio takes none, so descriptor 2 itself is
moved to a pipe whose lines are logged at debug level, and Python's own stderr (Hearth's status
lines, its warnings) to a copy of the terminal. The window (Textual) draws on descriptor 2, so
there only ALSA's handler is set.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
import threading

log = logging.getLogger("hearth.libraries")

_ALSA_HANDLER = None  # kept alive for as long as the ALSA library may call it
_moved = False


def quiet_alsa() -> None:
    global _ALSA_HANDLER
    name = ctypes.util.find_library("asound")
    if name is None or _ALSA_HANDLER is not None:
        return
    try:
        asound = ctypes.CDLL(name)
        handler_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                        ctypes.c_char_p)
        _ALSA_HANDLER = handler_type(lambda *args: None)
        asound.snd_lib_error_set_handler(_ALSA_HANDLER)
    except (OSError, AttributeError):
        pass


def libraries_stderr_to_log() -> None:
    """From now on what C libraries write to descriptor 2 is logged at debug level; Python's
    sys.stderr still reaches the terminal."""
    global _moved
    try:
        on_descriptor_2 = sys.stderr.fileno() == 2
    except (AttributeError, OSError, ValueError):  # (io.UnsupportedOperation is an OSError)
        on_descriptor_2 = False
    if _moved or not on_descriptor_2:  # stderr already taken elsewhere (a test capturing it): leave it be
        return
    sys.stderr.flush()
    terminal = os.dup(2)
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)
    sys.stderr = open(terminal, "w", buffering=1, encoding=sys.stderr.encoding or "utf-8",
                      errors="backslashreplace")
    threading.Thread(target=_log_lines, args=(read_end,), name="library-stderr", daemon=True).start()
    _moved = True


def _log_lines(fd: int) -> None:
    with open(fd, "rb") as pipe:
        for raw in pipe:
            line = raw.decode("utf-8", "replace").rstrip()
            if line:
                log.debug("%s", line)


def quiet_libraries() -> None:
    quiet_alsa()
    libraries_stderr_to_log()
