"""Who is speaking: voiceprints in the store, and the people they belong to.

`SpeakerBook(store)` identifies an utterance's voice embedding against every stored voiceprint,
enrols people, refreshes voiceprints from confident recognitions only, turns an unknown voice that
keeps talking into a provisional person (whose memories stay under that person until it is named or
merged), and names, renames, merges and forgets people. Merge and forget each run in one transaction
and leave no row that points at a person who is gone (the rows are moved by memory/tables/person_rows.py).
Rows are checked and decoded by memory/speaker_records.py.

The enrolment dialog itself ("my name is Priya" → "Shall I remember your voice as Priya?" → yes)
is pure and lives in memory/enrolment.py; the voice loop drives it and calls `SpeakerBook.claim`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Iterable

import numpy as np

from audio.voiceprint import (ANCHORS, DEFAULT_MARGIN, DEFAULT_THRESHOLD, MAX_VOICEPRINTS, VOICE_DIM, Identification,
                              UnknownVoices, decide, person_scores, prune_order, refresh_slot, should_refresh)

from .errors import MemoryStoreError
from .speaker_records import PersonSummary, SpeakerBookError, clean_name, decode_voiceprints, valid_embedding
from .tables.person_rows import delete_person_rows, move_person_rows
from .store import MemoryStore

PROVISIONAL_AFTER = 3        # consistent utterances before an unknown voice becomes a provisional person
OWNER_AFTER = 3              # consistent utterances before a desk's one person is known by voice
PENDING_LIMIT = 6            # unknown voices tracked at once (the oldest is forgotten first)
MIN_LEARN_SECONDS = 1.5      # shorter utterances neither refresh a voiceprint nor start a provisional person
GUEST = "Guest"              # provisional people are called "Guest 1", "Guest 2", ...


class SpeakerBook:
    def __init__(self, store: MemoryStore, threshold: float = DEFAULT_THRESHOLD, margin: float = DEFAULT_MARGIN,
                 provisional_after: int = PROVISIONAL_AFTER, clock: Callable[[], datetime] = datetime.now) -> None:
        self.store, self.threshold, self.margin = store, threshold, margin
        self.provisional_after = provisional_after
        self.clock = clock
        self._prints: dict[int, tuple[list[int], np.ndarray]] | None = None  # person -> (voiceprint ids, matrix)
        self._unknown = UnknownVoices(self.threshold, provisional_after, PENDING_LIMIT)
        self._owner = UnknownVoices(self.threshold, OWNER_AFTER, PENDING_LIMIT)  # voices of an un-enrolled desk

    # -- reading ------------------------------------------------------------------------------

    def _load(self) -> dict[int, tuple[list[int], np.ndarray]]:
        if self._prints is None:
            try:
                rows = self.store.voiceprints()
            except MemoryStoreError as exc:
                raise SpeakerBookError(f"the voiceprints in the memory store cannot be read ({exc})") from None
            self._prints = decode_voiceprints(rows)
        return self._prints

    def invalidate(self) -> None:
        self._prints = None

    def has_voiceprints(self) -> bool:
        """Whether anyone's voice is enrolled (or provisionally known) at all."""
        return bool(self._load())

    def voiceprints(self, person_id: int) -> np.ndarray:
        """The person's voiceprints, oldest first, (n, 256)."""
        entry = self._load().get(person_id)
        return entry[1].copy() if entry else np.zeros((0, VOICE_DIM), dtype=np.float32)

    def scores(self, embedding) -> dict[int, float]:
        q = valid_embedding(embedding, "voice embedding")
        return person_scores(q, {p: m for p, (_, m) in self._load().items()})

    def identify(self, embedding) -> Identification:
        """Who this voice is, by person id (None: unknown). Provisional people are candidates too."""
        return decide(self.scores(embedding), self.threshold, self.margin)

    def describe(self, ident: Identification) -> dict:
        """The fields of ev.SpeakerIdentified: person and runner-up by name."""
        return {"person": self.name_of(ident.person), "score": round(ident.score, 4),
                "runner_up": self.name_of(ident.runner_up if ident.known else ident.candidate),
                "runner_up_score": round(ident.runner_up_score if ident.known else ident.score, 4)}

    def name_of(self, person_id: int | None) -> str | None:
        if person_id is None:
            return None
        person = self.store.person(person_id)
        return person["name"] if person else None

    def lookup(self, name_or_id: str) -> int:
        """A person by exact name, then case-insensitive name, then '#id' or a bare id."""
        text = " ".join(str(name_or_id).split())
        pid = self.store.find_person(text)
        if pid is not None:
            return pid
        rows = self.store.people_named(text)
        if len(rows) == 1:
            return rows[0][0]
        if len(rows) > 1:
            raise SpeakerBookError(f"more than one person is called {text!r}; use their number (#id) instead")
        digits = text[1:] if text.startswith("#") else text
        if digits.isdigit() and self.store.person(int(digits)) is not None:
            return int(digits)
        raise SpeakerBookError(f"nobody called {text!r} is known (see `hearth people list`)")

    def list_people(self) -> list[PersonSummary]:
        rows = self.store.people_with_counts()
        return [PersonSummary(r[0], r[1], bool(r[2]), r[4], r[5], r[6], r[3]) for r in rows]

    # -- writing voiceprints ------------------------------------------------------------------

    def _name_free(self, name: str, except_id: int | None = None) -> None:
        taken = [n for pid, n in self.store.people_named(name) if pid != except_id]
        if taken:
            raise SpeakerBookError(f"someone is already called {taken[0]!r}; merge the two instead "
                                   "(`hearth people merge KEEP REMOVE`)")

    def enrol(self, name: str, embeddings: Iterable) -> int:
        """Create the person (or add to the one of this name) with these voiceprints; returns the person id."""
        name = clean_name(name)
        vectors = [valid_embedding(e, f"voice embedding {i + 1}") for i, e in enumerate(embeddings)]
        if not vectors:
            raise SpeakerBookError("enrolment needs at least one recording of the voice")
        with self.store.transaction():
            pid = self.store.find_person(name)
            if pid is None:
                rows = self.store.people_named(name)
                pid = rows[0][0] if rows else self.store.add_person(name, provisional=False, now=self.clock())
            elif self.store.person(pid)["provisional"]:
                self.store.confirm_person(pid)
            for v in vectors:
                self.store.add_voiceprint(pid, v, now=self.clock())
            self._prune(pid)
        self.invalidate()
        return pid

    def _prune(self, person_id: int, cap: int = MAX_VOICEPRINTS, anchors: int = ANCHORS) -> int:
        rows = [(vid, blob) for vid, _, blob in self.store.voiceprints(person_id) if blob is not None]
        if len(rows) <= cap:
            return 0
        matrix = np.vstack([np.frombuffer(bytes(b), dtype=np.float32) for _, b in rows])
        drop = prune_order(matrix, cap, anchors)
        for i in drop:
            self.store.delete_voiceprint(rows[i][0])
        return len(drop)

    def refresh(self, person_id: int, embedding, identification: Identification,
                seconds: float | None = None) -> str:
        """Learn from a recognised utterance if the recognition was confident: 'added', 'replaced' or 'skipped'."""
        v = valid_embedding(embedding, "voice embedding")
        if identification.person != person_id or not should_refresh(identification, self.threshold):
            return "skipped"
        if seconds is not None and seconds < MIN_LEARN_SECONDS:
            return "skipped"
        entry = self._load().get(person_id)
        if entry is None:
            return "skipped"
        ids, matrix = entry
        action, index = refresh_slot(matrix, v)
        if action == "skip":
            return "skipped"
        with self.store.transaction():
            if action == "replace":
                self.store.delete_voiceprint(ids[index])
            self.store.add_voiceprint(person_id, v, now=self.clock())
        self.invalidate()
        return "added" if action == "add" else "replaced"

    # -- unknown voices -----------------------------------------------------------------------

    def provisional_for(self, embedding, identification: Identification | None = None,
                        seconds: float | None = None) -> int | None:
        """An unknown voice heard again and again becomes a provisional person ("Guest N").

        Call it with each utterance nobody was recognised in. The voice is kept in memory with the
        other unknown voices; once `provisional_after` utterances agree (each scores above the
        threshold against the ones before), a provisional person is created with those voiceprints
        and its id returned. Until then, and for known voices, it returns None.
        """
        v = valid_embedding(embedding, "voice embedding")
        if identification is not None and identification.known:
            return None
        if seconds is not None and seconds < MIN_LEARN_SECONDS:
            return None
        agreed = self._unknown.hear(v)
        if agreed is None:
            return None
        with self.store.transaction():
            pid = self.store.add_person(self._next_guest_name(), provisional=True, now=self.clock())
            for e in agreed[:MAX_VOICEPRINTS]:
                self.store.add_voiceprint(pid, e, now=self.clock())
        self.invalidate()
        return pid

    def learn_owner(self, person_id: int, embedding, seconds: float | None = None) -> bool:
        """On a desk where no voice is known yet, every utterance is its one person's (`person_id`).
        Call this with each answered one: once `OWNER_AFTER` of them agree in voice (grouped as
        provisional_for groups unknown voices, so a visitor's few words form a group of their own),
        those become the person's voiceprints, and from then on a clearly different voice is a
        stranger. Returns True when it learned the voice."""
        v = valid_embedding(embedding, "voice embedding")
        if self.has_voiceprints() or (seconds is not None and seconds < MIN_LEARN_SECONDS):
            return False
        agreed = self._owner.hear(v)
        if agreed is None:
            return False
        with self.store.transaction():
            for e in agreed:
                self.store.add_voiceprint(person_id, e, now=self.clock())
        self.invalidate()
        self._owner.clear()
        return True

    def _next_guest_name(self) -> str:
        taken = self.store.names_starting(f"{GUEST} ")
        n = 1
        while f"{GUEST} {n}" in taken:
            n += 1
        return f"{GUEST} {n}"

    def claim(self, name: str, embeddings: Iterable, person_id: int | None = None) -> int:
        """What the enrolment dialog does on "yes": name the provisional speaker, or enrol a new person.

        Refuses a name that already belongs to someone else: a voice that was not recognised as Priya
        must not add itself to Priya's voiceprints by saying her name.
        """
        name = clean_name(name)
        self._name_free(name, except_id=person_id)
        vectors = [valid_embedding(e, "voice embedding") for e in embeddings]
        with self.store.transaction():
            if person_id is not None and self.store.person(person_id) is not None:
                self.name(person_id, name)
                for v in vectors:
                    self.store.add_voiceprint(person_id, v, now=self.clock())
                self._prune(person_id)
                pid = person_id
            else:
                pid = self.enrol(name, vectors)
        self.invalidate()
        return pid

    # -- people -------------------------------------------------------------------------------

    def _require(self, person_id: int) -> dict:
        person = self.store.person(person_id)
        if person is None:
            raise SpeakerBookError(f"no person {person_id} in the memory store")
        return person

    def name(self, person_id: int, name: str) -> None:
        """Give a person (usually a provisional one) a name; they stop being provisional."""
        self._require(person_id)
        name = clean_name(name)
        self._name_free(name, except_id=person_id)
        self.store.name_person(person_id, name)

    rename = name

    def merge(self, keep: int, remove: int) -> dict:
        """Everything of `remove` becomes `keep`'s, in one transaction; `remove` is deleted. Returns
        counts moved (see memory/tables/person_rows.py)."""
        if keep == remove:
            raise SpeakerBookError("cannot merge a person with themselves")
        self._require(keep)
        self._require(remove)
        with self.store.transaction():
            moved = move_person_rows(self.store, keep, remove)
            self._prune(keep)
        self._drop_caches(keep, remove)
        return moved

    def forget(self, person_id: int) -> dict:
        """Delete the person and everything that is theirs, in one transaction. Returns counts deleted."""
        self._require(person_id)
        with self.store.transaction():
            deleted = delete_person_rows(self.store, person_id)
        self._drop_caches(person_id)
        self._unknown.clear()
        return deleted

    def _drop_caches(self, *person_ids: int) -> None:
        self.invalidate()
        self.store.drop_person_caches(*person_ids)
