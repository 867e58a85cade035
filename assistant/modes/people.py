"""The command line's side of people: `hearth enrol NAME FILE...` and `hearth people ...`.

Each function opens the memory store in `config.data_path`, does one thing and returns the text to
print. Every failure is a HearthError with a one-line message.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterable

from assistant.config import Config
from assistant.errors import HearthError


@contextmanager
def _book(config: Config):
    from memory import MemoryStoreError, open_store
    from memory.speakers import SpeakerBook

    try:
        store = open_store(config.data_path, None)  # no text embedder: people commands never embed text
    except MemoryStoreError as exc:
        raise HearthError(str(exc)) from None
    try:
        yield SpeakerBook(store)
    except MemoryStoreError as exc:
        raise HearthError(str(exc)) from None
    finally:
        store.close()


def enrol(config: Config, name: str, files: Iterable[Path | str], encoder=None) -> str:
    """Voiceprints from recordings of one person (a few sentences each is best)."""
    from audio.sources import AudioInputError, read_audio_file
    from audio.voiceprint import VoiceEncoder, VoiceprintError

    files = [Path(f) for f in files]
    if not files:
        raise HearthError("enrol needs at least one recording of the person's voice")
    try:
        encoder = encoder or VoiceEncoder()
        embeddings, seconds = [], 0.0
        for path in files:
            audio = read_audio_file(path)
            if len(audio) < 16_000:
                raise HearthError(f"{path} holds under one second of audio; enrol needs a few seconds of speech")
            try:
                embeddings.append(encoder.embed(audio))
            except VoiceprintError as exc:
                raise HearthError(f"{path}: {exc}") from None
            seconds += len(audio) / 16_000
    except AudioInputError as exc:
        raise HearthError(str(exc)) from None
    except VoiceprintError as exc:
        raise HearthError(str(exc)) from None
    with _book(config) as book:
        existed = book.store.find_person(" ".join(name.split())) is not None
        pid = book.enrol(name, embeddings)
        kept = len(book.voiceprints(pid))
        who = book.name_of(pid)
    verb = "added to" if existed else "enrolled"
    return (f"{verb} {who} (#{pid}): {len(embeddings)} recording(s), {seconds:.1f} s of audio; "
            f"{kept} voiceprint(s) kept")


def list_people(config: Config) -> str:
    with _book(config) as book:
        people = book.list_people()
    if not people:
        return "nobody is known yet (enrol someone with `hearth enrol NAME FILE...`)"
    names = [p.name + (" (provisional)" if p.provisional else "") for p in people]
    width = max(4, *(len(n) for n in names))
    lines = [f"{'#':>4}  {'name':{width}}  voiceprints  turns  memories  since"]
    for p, name in zip(people, names):
        lines.append(f"{p.id:>4}  {name:{width}}  {p.voiceprints:>11}  {p.turns:>5}  {p.memories:>8}  {p.created[:10]}")
    return "\n".join(lines)


def rename(config: Config, old: str, new: str) -> str:
    with _book(config) as book:
        pid = book.lookup(old)
        before = book.name_of(pid)
        book.rename(pid, new)
        after = book.name_of(pid)
    return f"renamed {before} (#{pid}) to {after}"


def merge(config: Config, keep: str, remove: str) -> str:
    with _book(config) as book:
        keep_id, remove_id = book.lookup(keep), book.lookup(remove)
        keep_name, remove_name = book.name_of(keep_id), book.name_of(remove_id)
        moved = book.merge(keep_id, remove_id)
    parts = [f"{n} {k}" for k, n in moved.items() if n and k not in ("entities",)]
    return (f"merged {remove_name} (#{remove_id}) into {keep_name} (#{keep_id})"
            + (f": moved {', '.join(parts)}" if parts else ""))


def forget(config: Config, name: str) -> str:
    with _book(config) as book:
        pid = book.lookup(name)
        who = book.name_of(pid)
        deleted = book.forget(pid)
    parts = [f"{n} {k}" for k, n in deleted.items() if n]
    return f"forgot {who} (#{pid})" + (f": deleted {', '.join(parts)}" if parts else "")
