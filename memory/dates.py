"""Dates named in a turn, resolved against the day it was said, and dates rendered relative to now.

Pure functions: no clock is read here; the caller passes the dates. The phrases are found here;
calendar arithmetic (a month on from 31 January, the Friday before) is python-dateutil's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

from text.phrases import past_tense, present_verb, readings
from text.words import COUNT_WORDS, DAY_ORDINALS, count_of, count_phrase, day_of_month

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
_MON = {m[:3]: i + 1 for i, m in enumerate(MONTHS)} | {m: i + 1 for i, m in enumerate(MONTHS)}
_WEEKDAYS = (MO, TU, WE, TH, FR, SA, SU)
_FUTURE = re.compile(r"\b(will|'ll|going to|gonna|plan|planning|next|tomorrow|have an?|have my|coming up|"
                     r"can't wait|looking forward|scheduled|booked|hope to|want to)\b", re.I)
_MONTH_RE = "|".join(sorted(_MON, key=len, reverse=True))
_N_RE = "(" + "|".join([r"\d+", *sorted(COUNT_WORDS, key=len, reverse=True)]) + ")"
# a day of the month: "14", "14th", "fourteenth", "twenty-first"
_DAY_RE = ("(" + "|".join([r"\d{1,2}", *sorted(map(re.escape, DAY_ORDINALS), key=len, reverse=True)])
           + ")(?:st|nd|rd|th)?")



@dataclass(frozen=True)
class DateMention:
    phrase: str   # as written in the turn
    when: date    # resolved (a month named alone: a day in it, 1st, 5th, 15th or 25th as said)
    start: int    # offset in the text
    # how much of the calendar was said: "day" (written "1 March 2026"), "week" ("last week": "the week
    # of 23 February 2026"), "month" ("in June", "last month": "June 2027") or "year" ("last year":
    # "2025"); "last year" was written as a made-up day, "8 May 2022", and answered so
    span: str = "day"

    def still_to_come(self, today: date) -> bool:
        """Whether the date said is after today; a month named also while it has days to come ("I
        start in March", said on 2 March), not the one under way ("this month": a thing going on)."""
        if self.when > today:
            return True
        named = self.span == "month" and not self.phrase.lower().startswith(("this", "last", "since"))
        return named and self.when + relativedelta(day=31) > today


_HABIT = re.compile(r"\s+(?:mornings|afternoons|evenings|nights)\b", re.I)


def _future(text: str) -> bool:
    return bool(_FUTURE.search(text))


# A date said in the present tense is not behind us: "Kate is getting married in June" or "The
# wedding is on the 14th of June", said in December, is next June. (The sentence's own verb, before
# the date; "'s" only after a pronoun, as "Kate's" is hers.)
_UNDER_WAY = re.compile(r"\b(?:is|are|am|has|(?:it|he|she|that|there|what|who)['’]s|(?:we|you|they)['’]re|i['’]m)\s+"
                        r"(?!been\b|\w+ed\b|gone\b|done\b|had\b)", re.I)

# a clause of its own: a subject and its verb (past_tense says whether the verb is in the past)
_SUBJECT_VERB = re.compile(r"\b(?:i|you|he|she|we|they|it)\s+(\w+)(?:\s+(\w+))?", re.I)


def _verbs(text: str, start: int, end: int) -> list[tuple[str, int]]:
    """Each pronoun subject's verb between start and end, lower case, with where it ends; past an
    adverb in -ly ("I really liked"), not one that is a verb itself ("we fly")."""
    out = []
    for m in _SUBJECT_VERB.finditer(text, start, end):
        first, second = m.group(1).lower(), (m.group(2) or "").lower()
        if second and first.endswith("ly") and "VERB" not in readings(first):
            out.append((second, m.end(2)))
        else:
            out.append((first, m.end(1)))
    return out


def _coming(text: str, at: int) -> bool:
    """Whether the sentence holding offset `at` says, before it, what is or will be (and no past
    verb comes between: "She is happy she graduated in June"); a present verb of its own says so
    too ("I start in March", said in December, is next March: it was written as the March gone)."""
    start = max(text.rfind(mark, 0, at) for mark in ".!?")
    said = [m.end() for m in _UNDER_WAY.finditer(text, start + 1, at)]
    said += [end for verb, end in _verbs(text, start + 1, at) if present_verb(verb)]
    if not said:
        return False
    return not any(past_tense(verb) for verb, _ in _verbs(text, max(said), at))


def _month_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def resolve_dates(text: str, said_on: date) -> list[DateMention]:
    """Every date phrase in `text` resolved against `said_on`, in order of appearance."""
    if isinstance(said_on, datetime):
        said_on = said_on.date()
    future = _future(text)
    found: list[DateMention] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match, when: date | None, span: str = "day") -> None:
        if when is None or any(s < m.end() and m.start() < e for s, e in taken):
            return
        taken.append((m.start(), m.end()))
        found.append(DateMention(m.group(0), when, m.start(), span))

    for m in re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})\b", text):
        add(m, _month_day(int(m[1]), int(m[2]), int(m[3])))

    def ahead(m: re.Match, month: int, day: int) -> date | None:
        """A day of a month said without its year: this year's, or next year's if it is past and
        said as what is still to come."""
        when = _month_day(said_on.year, month, day)
        if when is not None and when < said_on and (future or _coming(text, m.start())):
            when = _month_day(said_on.year + 1, month, day)
        return when

    for m in re.finditer(rf"\b{_DAY_RE}(?: of)? ({_MONTH_RE})\b(?:,? (\d{{4}}))?", text, re.I):
        month, day = _MON[m[2].lower()], day_of_month(m[1])
        add(m, _month_day(int(m[3]), month, day) if m[3] else ahead(m, month, day))
    for m in re.finditer(rf"\b({_MONTH_RE}) (?:the )?{_DAY_RE}\b(?:,? (\d{{4}}))?", text, re.I):
        month, day = _MON[m[1].lower()], day_of_month(m[2])
        add(m, _month_day(int(m[3]), month, day) if m[3] else ahead(m, month, day))
    for m in re.finditer(r"\b(the day before yesterday|yesterday|last night|today|tonight|this morning|"
                         r"the day after tomorrow|tomorrow)\b", text, re.I):
        offset = {"the day before yesterday": -2, "yesterday": -1, "last night": -1, "today": 0, "tonight": 0,
                  "this morning": 0, "the day after tomorrow": 2, "tomorrow": 1}[m[1].lower()]
        add(m, said_on + timedelta(days=offset))
    for m in re.finditer(rf"\b(next|last|this|on|coming|past)? ?({'|'.join(WEEKDAYS)})(s?)\b", text, re.I):
        if _HABIT.match(text, m.end()) or m[3] or re.search(r"\bevery\s*$", text[:m.start(2)], re.I):
            continue  # "on Wednesdays", "on Wednesday evenings", "every Monday": a habit, not a day
        weekday = _WEEKDAYS[WEEKDAYS.index(m[2].lower())]
        mode = (m[1] or "on").lower()
        if mode == "on":  # "on Monday": the coming one if the turn is about the future or said as what
            # is ("She has her exam on Saturday"), else the last
            mode = "this" if future or _coming(text, m.start()) else "last"
        if mode == "next":  # the first after today
            add(m, said_on + relativedelta(days=1, weekday=weekday(+1)))
        elif mode in ("last", "past"):  # the last before today
            add(m, said_on + relativedelta(days=-1, weekday=weekday(-1)))
        else:  # "this" or "coming": today or the first after it
            add(m, said_on + relativedelta(weekday=weekday(+1)))
    for m in re.finditer(rf"\b(?:in|since|during|until|by|last|next|this)? ?(early |late |mid-?)?({_MONTH_RE})\b(?: (\d{{4}}))?",
                         text, re.I):
        word = m[2].lower()
        if word == "may" and not m[3] and not re.match(r"(?i)(in|since|during|until|by|last|next|this)\b", m[0]):
            continue  # "may" the verb
        month = _MON[word]
        lead = m[0].lower()
        year = said_on.year
        if m[3]:
            year = int(m[3])
        elif lead.startswith("last") and month >= said_on.month or lead.startswith("since") and month > said_on.month:
            year -= 1
        elif (lead.startswith("next") or future or _coming(text, m.start())) and month < said_on.month \
                and not lead.startswith("since"):
            year += 1
        day = {"early ": 5, "late ": 25}.get((m[1] or "").lower(), 15 if m[1] else 1)
        add(m, _month_day(year, month, day), "month")
    for m in re.finditer(rf"\b{_N_RE} (day|week|month|year)s? ago\b", text, re.I):
        add(m, _shift(said_on, -count_of(m[1]), m[2].lower()), m[2].lower())
    for m in re.finditer(rf"\bin {_N_RE} (day|week|month|year)s?\b", text, re.I):
        add(m, _shift(said_on, count_of(m[1]), m[2].lower()), m[2].lower())
    for m in re.finditer(r"\b(next|last|this) (week|weekend|month|year)\b", text, re.I):
        sign = {"next": 1, "last": -1, "this": 0}[m[1].lower()]
        unit = m[2].lower()
        if unit == "weekend":
            saturday = said_on + timedelta(days=(5 - said_on.weekday()) % 7)
            add(m, saturday + timedelta(days=7 * sign if sign > 0 and said_on.weekday() >= 5 else 0)
                if sign >= 0 else saturday - timedelta(days=7))
        else:
            add(m, _shift(said_on, sign, unit), unit)
    for m in re.finditer(r"\b(?:in|since|back in) (\d{4})\b", text, re.I):
        add(m, date(int(m[1]), 1, 1), "year")
    found.sort(key=lambda d: d.start)
    return found


def _shift(day: date, n: int, unit: str) -> date:
    """n days, weeks, months or years on (back, if negative); a month on from 31 January is 28 or 29 February."""
    return day + relativedelta(**{f"{unit}s": n})


def format_date(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1].capitalize()} {day.year}"


# What format_date writes, as patterns (match them case-insensitively): "1 March", then "1 March 2026".
DAY_MONTH_RE = r"\d{1,2} (?:" + "|".join(MONTHS) + ")"
WRITTEN_DATE_RE = DAY_MONTH_RE + r" \d{4}"
MONTH_YEAR_RE = r"(?:" + "|".join(MONTHS) + r") \d{4}"  # a month said alone: "June 2027"
# Whatever `written` writes: "1 March 2026", "the week of 1 March 2026", "March 2026", "2026".
WRITTEN_ANY_RE = rf"(?:the week of )?{WRITTEN_DATE_RE}|{MONTH_YEAR_RE}|\d{{4}}"
# What `absolutise` puts after the phrase that named a time: the written date in brackets, captured
NOTE_DATE_RE = rf"\(({WRITTEN_ANY_RE})\)"
# Whatever `relative` says: "today", "last week", "five days ago", "in two months", "a year ago"
RELATIVE_RE = (r"today|yesterday|tomorrow|last week|next week|"
               r"(?:in )?(?:a|[a-z]+|\d+) (?:days?|weeks?|months?|years?)(?: ago)?")


def written(mention: DateMention) -> str:
    """The date as much as was said of it: "1 March 2026", "the week of 1 March 2026", "March 2026", "2026"."""
    day = mention.when
    return {"week": f"the week of {format_date(day)}", "month": f"{MONTHS[day.month - 1].capitalize()} {day.year}",
            "year": str(day.year)}.get(mention.span, format_date(day))


def read_written(text: str) -> tuple[date, str]:
    """What `written` wrote, read back: ("7 May 2023" → 7 May 2023, "day"), ("June 2023" → 1 June,
    "month"), ("2022" → 1 January, "year"). (A week is read as its day.)"""
    words = text.lower().removeprefix("the week of ").split()
    year = int(words[-1])
    if len(words) == 1:
        return date(year, 1, 1), "year"
    month = MONTHS.index(words[-2]) + 1
    return (date(year, month, int(words[0])), "day") if len(words) == 3 else (date(year, month, 1), "month")


def absolutise(text: str, mentions: list[DateMention]) -> str:
    """The text with each date phrase followed by its absolute date: 'yesterday (1 March 2026)'."""
    out, last = [], 0
    for m in mentions:
        end = m.start + len(m.phrase)
        if re.search(r"\d{4}", m.phrase):
            continue
        out.append(text[last:end])
        out.append(f" ({written(m)})")
        last = end
    out.append(text[last:])
    return "".join(out)


def relative(day: date | datetime | str, now: date | datetime) -> str:
    """'today', 'yesterday', 'three weeks ago', 'in two months', 'last year'... relative to now."""
    if isinstance(day, str):
        day = datetime.fromisoformat(day)
    if isinstance(day, datetime):
        day = day.date()
    if isinstance(now, datetime):
        now = now.date()
    delta = (day - now).days
    n = abs(delta)
    if delta == 0:
        return "today"
    if delta == -1:
        return "yesterday"
    if delta == 1:
        return "tomorrow"
    if n < 7:
        phrase = count_phrase(n, "day")
    elif n < 14:
        return "last week" if delta < 0 else "next week"
    elif n < 31:
        phrase = count_phrase(n // 7, "week")
    elif n < 365:
        months = max(1, round(n / 30.4))
        if months == 12:
            return "a year ago" if delta < 0 else "in a year"
        phrase = count_phrase(months, "month")
    else:
        phrase = count_phrase(round(n / 365), "year")
    return f"{phrase} ago" if delta < 0 else f"in {phrase}"


def days_asked(text: str, today: date) -> list[tuple[date, date]]:
    """Pure. The stretches of the calendar a question names, each (first day, last day): "on
    Thursday" that day, "next week" its seven days, "in June" the month, "this weekend" Saturday and
    Sunday. A weekday named alone ("What's on Thursday?", "What did I do on Friday?") is the one
    before and the one after today: a question's tense says too little to choose."""
    out = []
    for m in resolve_dates(text, today):
        first = m.when.replace(day=1) if m.span == "month" else date(m.when.year, 1, 1) if m.span == "year" \
            else m.when
        last = {"week": first + timedelta(days=6), "month": first + relativedelta(day=31),
                "year": date(first.year, 12, 31)}.get(m.span, first)
        if "weekend" in m.phrase.lower():
            last = first + timedelta(days=1)
        out.append((first, last))
        if m.span == "day" and _BARE_WEEKDAY.fullmatch(m.phrase):
            other = first + timedelta(days=-7 if first > today else 7)
            out.append((other, other))
    return out


_BARE_WEEKDAY = re.compile(rf"(?:on )?(?:{'|'.join(WEEKDAYS)})", re.I)
