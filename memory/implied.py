"""Feelings a turn implies without naming them ("My grandad passed away on Tuesday").

The turn's sentence vector (the text embedder's) is compared with short described situations, a
few for each feeling and some that carry none (plain facts, routines, text read aloud, counting).
Each kind scores the mean of its NEAREST closest situations; the best kind wins when it is clearly
nearer than any kind unlike it (no feeling, or one of the other valence). The situations are kinds of event, in
the speaker's words, not anyone's sentences; measured by benchmarks/memory.py --writes.
"""

from __future__ import annotations

import re
import threading
from typing import Mapping, Sequence

import numpy as np

from .affect import EMOTIONS, Affect, detect_affect, main_event
from .appraisal import appraised, lean, standing

NONE = "none"
NEAREST = 2  # situations a kind is judged by: one alone let a single odd neighbour decide
MARGIN = 0.03  # how much nearer the winner must be than any kind unlike it: such a close call records nothing,
               # as a wrong feeling in a note is worse than none (it colours the replies)

SITUATIONS: dict[str, tuple[str, ...]] = {
    # Each life topic (family, pets, work, health, home, travel, money, friends, achievements) has a
    # situation of several kinds, so that what decides is what happened, not what it was about.
    "happy": ("A baby was born in our family.", "We got a new puppy.", "I got the job I wanted.",
              "The doctor says I'm healthy.", "We bought our first house.", "We had a lovely holiday.",
              "I got a pay rise.", "An old friend got back in touch with me.", "I passed the exam.",
              "We finished the project and it turned out great.", "My son won the competition.",
              "I love my new job."),
    "excited": ("We are going on holiday next week!", "I start my new job on Monday and can't believe it!",
                "We move into the new house this weekend!", "The concert I've waited months for is on Saturday!",
                "My best friend is coming to stay tomorrow!", "My book comes out next month!",
                "Our baby is due any day now!"),
    "relieved": ("The scan came back clear.", "The operation went well and she is recovering.",
                 "They found our lost dog safe.", "The flight landed safely after all.",
                 "We finally paid off the loan.", "I kept my job after all.",
                 "The storm passed and the house is fine.", "It turned out to be nothing serious."),
    "sad": ("Someone in my family died.", "Our dog died.", "My best friend moved far away.",
            "My partner and I broke up.", "We had to sell the family home.", "I lost my job.",
            "I miss my family back home.", "The trip we planned for years fell through.",
            "I failed the exam again."),
    "worried": ("My mother is ill and waiting for test results.", "Our cat hasn't come home for two days.",
                "There might be job cuts at work.", "I can't afford the rent this month.",
                "I have a big presentation tomorrow and I'm not ready.", "My son is struggling at school.",
                "The doctor wants to run more tests.", "My flight might be cancelled by the storm.",
                "My child got hurt and broke a bone."),
    "frustrated": ("The train was delayed again.", "My computer crashed and I lost my work.",
                   "The landlord still hasn't fixed the heating.", "My colleague keeps taking credit for my work.",
                   "The neighbours' dog barks all night.", "I've been on hold with the bank for an hour.",
                   "They cancelled my appointment again at the last minute.", "The delivery never came, again."),
    "tired": ("I have worked long hours all week with no rest.", "I haven't slept properly for days.",
              "I can barely stay awake.", "I've been busy all day and have no energy left.",
              "The night shifts are draining me.", "The baby was up all night."),
    NONE: ("My sister lives in another city.", "We have a cat called Tom.", "I work in an office in town.",
           "I take my tablets every morning.", "We live in a flat near the station.",
           "I take the train to work.", "I get paid at the end of the month.", "My friend is a nurse.",
           "The meeting is on Tuesday at ten.", "It is cloudy today.", "I usually have tea in the morning.",
           "The book describes the history of the city.", "The old king ruled the land and the people obeyed his laws.",
           "One, two, three, four.", "Red, green, blue and yellow.", "The recipe needs two eggs and some flour.",
           # plain things done, not only things that are: a walk with the dog is no loss of one
           "I walked the dog in the park this morning.", "I visited my parents at the weekend.",
           "I cooked dinner for the family last night.", "I just got home."),
}


def kind_scores(similarities: Mapping[str, Sequence[float]], nearest: int = NEAREST) -> dict[str, float]:
    """Pure. Per kind, the mean similarity of its `nearest` closest situations."""
    return {kind: float(np.mean(sorted(sims)[-nearest:])) for kind, sims in similarities.items() if len(sims)}


def implied_label(similarities: Mapping[str, Sequence[float]], nearest: int = NEAREST,
                  margin: float = MARGIN, lean: int = 0) -> str | None:
    """The feeling whose nearest situations are closest on average, by at least `margin` over every
    kind unlike it; None when the situations that carry no feeling win or such a call is close.
    similarities: per kind (NONE included), one per situation. lean: which way the words say it went
    (memory.appraisal.lean: +1 good, -1 bad, 0 they do not say); it decides a close call between good
    and bad news, where the feeling of that valence is clearly nearer than no feeling."""
    scores = kind_scores(similarities, nearest)
    ranked = sorted(scores, key=scores.get, reverse=True)
    if not ranked or ranked[0] == NONE:
        return None
    best = ranked[0]
    # a close call between two feelings alike ("happy" or "excited" at a new job) still says how they feel
    rivals = [kind for kind in ranked[1:] if not _alike(kind, best)]
    if rivals and scores[best] - scores[rivals[0]] < margin:
        leaning = [kind for kind in ranked if kind != NONE and (EMOTIONS[kind][0] > 0) == (lean > 0)]
        if lean and leaning and scores[leaning[0]] - scores[NONE] >= margin:
            return leaning[0]
        return None
    return best


# The language model's check of which way a feeling goes (the embedder's situations follow the
# topic: "My husband was made redundant…" was nearest getting a job, and written as happiness). How
# the model goes on after "<what they said> It makes me feel", against how it goes on after text
# that carries no news, says good or bad news well (right for 84-90% of written turns with a
# feeling) but not whether there is any feeling, nor which one: it only turns a feeling found.
FEELINGS_NEXT = "{text} It makes me feel"
NO_NEWS = ("Okay.", "It is Tuesday.", "Here we are.", "The box is on the table.")
FEELING_WORDS = tuple(kind for kind in SITUATIONS if kind != NONE)  # the words asked of the model
TURNED_BY = 1.5  # nats the model must lean the other way by to turn the feeling found


def model_lean(odds: Sequence[float], no_news: Sequence[float]) -> float:
    """Pure. How much more the model's next words lean to the good feelings than to the bad ones
    (log-odds, nats), against how they lean after text with no news. odds, no_news: the log-
    probabilities of FEELING_WORDS coming next."""
    shift = np.asarray(odds, dtype=float) - np.asarray(no_news, dtype=float)
    good = [x for kind, x in zip(FEELING_WORDS, shift) if EMOTIONS[kind][0] > 0]
    bad = [x for kind, x in zip(FEELING_WORDS, shift) if EMOTIONS[kind][0] < 0]
    return float(np.logaddexp.reduce(good) - np.logaddexp.reduce(bad))


def turned(label: str, scores: Mapping[str, float], leaning: float, by: float = TURNED_BY) -> str:
    """Pure. The feeling found (`label`, a kind), unless the model leans clearly the other way
    (`leaning`, model_lean): then the kind of that valence whose situations are nearest (`scores`)."""
    good = EMOTIONS[label][0] > 0
    if (leaning < -by) if good else (leaning > by):
        return max((kind for kind in FEELING_WORDS if (EMOTIONS[kind][0] > 0) != good), key=lambda k: scores[k])
    return label


def _alike(kind: str, other: str) -> bool:
    return kind != NONE and other != NONE and (EMOTIONS[kind][0] > 0) == (EMOTIONS[other][0] > 0)


class ImpliedFeelings:
    """`of(text)`: the Affect a turn implies (stated=False, its cause the first clause of the turn's
    main event), or None. The situations are embedded once, on first use; `implied_feelings`
    shares one reader per embedder between the memory writer and the reply path."""

    def __init__(self, embedder) -> None:
        self.embedder = embedder
        self._situations_embedded: tuple[list[str], np.ndarray] | None = None
        self._lock = threading.Lock()
        self._no_news: dict[int, list[float]] = {}  # per language model: its odds after NO_NEWS

    def _situations(self) -> tuple[list[str], np.ndarray]:
        with self._lock:
            if self._situations_embedded is None:
                kinds = [kind for kind, said in SITUATIONS.items() for _ in said]
                vectors = self.embedder.embed([s for said in SITUATIONS.values() for s in said])
                self._situations_embedded = kinds, vectors
            return self._situations_embedded

    def felt(self, text: str) -> Affect | None:
        """How what was said is for the speaker: the feeling it names decides ("I'm so relieved"
        after a stay in hospital), else the one it implies."""
        return detect_affect(text) or self.of(text)

    def bad_news(self, text: str) -> bool:
        """Whether what was said is bad for the speaker (`felt`)."""
        return is_bad(self.felt(text))

    def of(self, text: str, next_word_odds=None, ahead: bool = False) -> Affect | None:
        """next_word_odds(text, words): the language model's odds of each word coming next
        (ChatModel.next_word_odds), to check which way a feeling found goes; None: not checked.
        `ahead`: a date the words name is still to come (appraisal.standing)."""
        if not text.strip():
            return None
        kinds, matrix = self._situations()
        sims = matrix @ self.embedder.embed_one(text)
        by_kind: dict[str, list[float]] = {}
        for kind, sim in zip(kinds, sims):
            by_kind.setdefault(kind, []).append(float(sim))
        cues = standing(text, ahead)  # how the words say it stands, read once for both uses
        label = implied_label(by_kind, lean=lean(text, cues))
        if label is None:
            return None
        leaning = self._model_lean(text, next_word_odds) if next_word_odds is not None else None
        if leaning is not None:
            label = turned(label, kind_scores(by_kind), leaning)
        label = appraised(label, text, cues)  # the situations hear good or bad news; the words say how it stands
        return implied_affect(label, text)

    def _model_lean(self, text: str, next_word_odds) -> float | None:
        """model_lean of what was said, or None where the model gave no odds."""
        model = id(getattr(next_word_odds, "__self__", next_word_odds))
        no_news = self._no_news.get(model)
        if no_news is None:
            each = [next_word_odds(FEELINGS_NEXT.format(text=t), FEELING_WORDS) for t in NO_NEWS]
            if any(odds is None for odds in each):
                return None
            no_news = self._no_news[model] = [float(x) for x in np.mean(each, axis=0)]
        odds = next_word_odds(FEELINGS_NEXT.format(text=text.strip()), FEELING_WORDS)
        return model_lean(odds, no_news) if odds is not None else None


_READERS: dict[int, ImpliedFeelings] = {}
_READERS_LOCK = threading.Lock()


def implied_affect(label: str, text: str) -> Affect | None:
    """Pure. The Affect of a feeling the text implies (`label`, one of EMOTIONS, or NONE: None), its
    cause the first clause of the turn's main event."""
    if label == NONE:
        return None
    valence, arousal, _ = EMOTIONS[label]
    return Affect(label, valence, arousal, first_clause(main_event(text)) or None, stated=False)


def is_bad(felt: Affect | None) -> bool:
    """Pure. A feeling that is not good for whoever has it: news a reply does not cheer."""
    return felt is not None and felt.valence < 0


def implied_feelings(embedder) -> ImpliedFeelings:
    """The one reader of implied feelings for this embedder (its situations embedded once)."""
    with _READERS_LOCK:
        reader = _READERS.get(id(embedder))
        if reader is None or reader.embedder is not embedder:
            reader = _READERS[id(embedder)] = ImpliedFeelings(embedder)
        return reader


def first_clause(event: str) -> str:
    """What happened, in short: the event up to its first comma, semicolon or "and" where what is
    before says something (three words or more); the note holds the rest already."""
    # a name set off by commas is no clause: "My neighbour on the allotment, Frank, had a fall"
    masked = _APPOSITIVE.sub(lambda m: f"{_OPENS}{m.group(1)}{_CLOSES}", event)
    head = re.split(r"\s*[,;]\s*|\s+and\s+", masked, maxsplit=1)[0]
    head = (head if len(head.split()) >= 3 else masked).replace(_OPENS, ", ").replace(_CLOSES, ",")
    # it follows "because" in the note: "… because my grandad passed away", not "because My grandad"
    return _LEADING.sub(lambda m: m.group(0).lower(), head, count=1)


_OPENS, _CLOSES = "\x00", "\x01"  # an appositive's commas, kept from the split while it is made
_APPOSITIVE = re.compile(r",\s+([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}),")
_LEADING = re.compile(r"^(?:My|Our|Your|His|Her|Their|The|A|An|We|It|This|That|These|Those)\b")
