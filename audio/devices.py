"""Finding sound devices through sounddevice, with clear errors when PortAudio or a device is missing."""

from __future__ import annotations

from typing import Any

from .errors import AudioInputError

PORTAUDIO_HINT = (
    "PortAudio is not installed (on Debian/Ubuntu: sudo apt-get install libportaudio2); "
    "'hearth replay FILE' and 'hearth demo' work without it"
)


def load_sounddevice():
    try:
        import sounddevice
    except OSError:
        raise AudioInputError(PORTAUDIO_HINT) from None
    return sounddevice


def list_devices() -> list[dict[str, Any]]:
    sd = load_sounddevice()
    return [dict(d, index=i) for i, d in enumerate(sd.query_devices())]


def _find(sd, wanted: int | str | None, kind: str) -> tuple[int, dict[str, Any]]:
    channels_key = "max_input_channels" if kind == "input" else "max_output_channels"
    devices = [dict(d, index=i) for i, d in enumerate(sd.query_devices())]
    usable = [d for d in devices if d[channels_key] > 0]
    if not usable:
        asked = f"unknown {kind} device {wanted!r}: " if wanted not in (None, "") else ""
        raise AudioInputError(f"{asked}no audio {kind} device found; 'hearth replay FILE' works without one")
    if wanted is None or wanted == "":
        default = sd.default.device[0 if kind == "input" else 1]
        chosen = next((d for d in usable if d["index"] == default), usable[0])
        return chosen["index"], chosen
    if isinstance(wanted, int) or str(wanted).isdigit():
        idx = int(wanted)
        match = next((d for d in usable if d["index"] == idx), None)
    else:
        match = next((d for d in usable if str(wanted).lower() in d["name"].lower()), None)
    if match is None:
        raise AudioInputError(f"unknown {kind} device {wanted!r}; 'hearth devices' lists them")
    return match["index"], match


def input_device(sd, wanted: int | str | None) -> tuple[int, dict[str, Any]]:
    return _find(sd, wanted, "input")


def output_device(sd, wanted: int | str | None) -> tuple[int, dict[str, Any]]:
    return _find(sd, wanted, "output")
