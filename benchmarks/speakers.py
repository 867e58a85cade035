"""Who is speaking: voiceprint identification on real recordings, and the threshold it needs.

    .venv/bin/python benchmarks/speakers.py [--speakers DIR] [--conversation WAV] [--json FILE]

1. Enrol each speaker in DIR (default ../shared/data/speech/speakers) from their first 3 utterances
   into a real memory store (SpeakerBook), identify each of their other utterances and every clip in
   DIR/impostors, and sweep the threshold. Reported per threshold: identification accuracy (the right
   person accepted), false rejects, false accepts of impostors, open-set false accepts (each enrolled
   speaker in turn is left out of the book and their utterances count as impostors: "other speakers
   accepted as someone enrolled"), and the verification FAR/FRR over every (utterance, enrolled
   person) pair, whose crossing is the EER. The same again on short pieces (JSON `speakers.pieces`):
   one piece of 2-4 s cut at random (a fixed seed) from each utterance after the enrolment ones and
   from each impostor clip, as a person at a desk says a few words at a time; enrolment is as above.
   Then those pieces as sessions (benchmarks/speaker_sessions.py, JSON `speakers.session`): each
   speaker's in order with the session's evidence, and every stranger right after each session; and
   the same with pieces of 1-1.5 s, a short question's length ("When is my talk?"; `speakers.session_short`).
   And raw scores against cohort-normalised ones (benchmarks/speaker_cohort.py, `speakers.cohort_norm`).
2. Replay a meeting (default ami-dev00.wav) through the product's listener (silero-vad + endpointer),
   embed each utterance and run it through a fresh SpeakerBook as the loop would: identify, else
   provisional_for (unknown voices cluster into provisional people), refresh on confident matches.
   Each utterance is mapped to the RTTM speaker it overlaps most; purity and agreement are reported.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter, defaultdict
from itertools import permutations
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from json_report import write_json  # noqa: E402  (a sibling: benchmarks/ is on the path as a script)

from audio import FRAME_SECONDS  # noqa: E402
from audio.sources import read_audio_file  # noqa: E402
from audio.voiceprint import DEFAULT_MARGIN, DEFAULT_THRESHOLD, VoiceEncoder, decide, person_scores  # noqa: E402
from memory import open_store  # noqa: E402
from memory.speakers import MIN_LEARN_SECONDS, SpeakerBook  # noqa: E402
from speaker_cohort import cohort_comparison, print_cohort  # noqa: E402
from speaker_sessions import print_sessions, session_trials  # noqa: E402

SPEECH = ROOT.parent / "shared" / "data" / "speech"
ENROL = 3
GOAL_ACCURACY, GOAL_FAR = 0.95, 0.02
SWEEP = [round(x, 2) for x in np.arange(0.50, 0.951, 0.01)]
PIECE_SECONDS = (2.0, 4.0)
SHORT_SECONDS = (1.0, 1.5)
PIECE_SEED = 24


def piece(audio: np.ndarray, rng: np.random.Generator, seconds: tuple[float, float] = PIECE_SECONDS) -> np.ndarray:
    """A piece of 2-4 s (`seconds`) from a random place in the utterance (the whole of a shorter one)."""
    n = int(rng.uniform(*seconds) * 16000)
    if len(audio) <= n:
        return audio
    start = int(rng.integers(0, len(audio) - n + 1))
    return audio[start:start + n]


class Clip(NamedTuple):
    name: str
    whole: np.ndarray  # the embedding of the whole recording
    piece: np.ndarray  # the embedding of a 2-4 s piece of it
    piece_seconds: float
    short: np.ndarray  # the embedding of a 1-1.5 s piece of it
    short_seconds: float


def embed_folder(encoder: VoiceEncoder, folder: Path):
    """Each speaker's clips (and the impostors' clips), embedded whole and as a piece."""
    speakers: dict[str, list[Clip]] = {}
    impostors: list[Clip] = []
    times = []
    rng = np.random.default_rng(PIECE_SEED)
    short_rng = np.random.default_rng(PIECE_SEED + 1)  # its own, so the 2-4 s pieces are cut as before
    for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in (".flac", ".wav")):
        audio = read_audio_file(path)
        t0 = time.perf_counter()
        e = encoder.embed(audio)
        times.append((len(audio) / 16000, time.perf_counter() - t0))
        who = path.parent.name
        cut, short = piece(audio, rng), piece(audio, short_rng, SHORT_SECONDS)
        (impostors if who == "impostors" else speakers.setdefault(who, [])).append(
            Clip(path.name, e, encoder.embed(cut), len(cut) / 16000, encoder.embed(short), len(short) / 16000))
    return speakers, impostors, times


def speaker_benchmark(encoder: VoiceEncoder, folder: Path) -> dict:
    speakers, impostors, times = embed_folder(encoder, folder)
    full = identification(speakers, impostors, pieces=False)
    full["pieces"] = identification(speakers, impostors, pieces=True)
    full["session"] = session_trials(speakers, impostors, ENROL)
    full["session_short"] = session_trials(speakers, impostors, ENROL, short=True)
    full["cohort_norm"] = cohort_comparison(speakers, impostors, ENROL)
    full["embed_ms_per_audio_s"] = 1000 * sum(w for _, w in times[1:]) / max(1e-9, sum(a for a, _ in times[1:]))
    return full


def identification(speakers: dict, impostors: list, pieces: bool) -> dict:
    """The threshold sweep with enrolment from each speaker's first ENROL whole utterances, and the
    trials whole (pieces=False) or as the short pieces cut from them."""
    def trial(c: Clip) -> np.ndarray:
        return c.piece if pieces else c.whole

    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp), None)
        book = SpeakerBook(store)
        ids = {who: book.enrol(f"speaker {who}", [c.whole for c in clips[:ENROL]]) for who, clips in speakers.items()}
        names = {pid: who for who, pid in ids.items()}
        genuine = [(who, book.scores(trial(c))) for who, clips in speakers.items() for c in clips[ENROL:]]
        impostor = [book.scores(trial(c)) for c in impostors]
        store.close()
    genuine = [(who, {names[p]: s for p, s in sc.items()}) for who, sc in genuine]
    impostor = [{names[p]: s for p, s in sc.items()} for sc in impostor]

    rows = []
    for t in SWEEP:
        right = wrong = rejected = 0
        for who, sc in genuine:
            got = decide(sc, t, DEFAULT_MARGIN).person
            right += got == who
            wrong += got is not None and got != who
            rejected += got is None
        imp_acc = sum(decide(sc, t, DEFAULT_MARGIN).known for sc in impostor)
        # open set: leave each enrolled speaker out; their utterances are impostors to the others
        open_trials = open_acc = 0
        for who, sc in genuine:
            rest = {p: s for p, s in sc.items() if p != who}
            open_trials += 1
            open_acc += decide(rest, t, DEFAULT_MARGIN).known
        for sc in impostor:
            open_trials += 1
            open_acc += decide(sc, t, DEFAULT_MARGIN).known
        target = [sc[who] for who, sc in genuine]
        nontarget = [s for who, sc in genuine for p, s in sc.items() if p != who] + \
                    [s for sc in impostor for s in sc.values()]
        n = len(genuine)
        rows.append({"threshold": t, "accuracy": right / n, "misidentified": wrong / n, "false_reject": rejected / n,
                     "impostor_accept": imp_acc / max(1, len(impostor)), "open_set_far": open_acc / open_trials,
                     "verify_far": float(np.mean(np.array(nontarget) >= t)),
                     "verify_frr": float(np.mean(np.array(target) < t))})
    eer_row = min(rows, key=lambda r: (abs(r["verify_far"] - r["verify_frr"]), r["verify_far"] + r["verify_frr"]))
    eer = (eer_row["verify_far"] + eer_row["verify_frr"]) / 2
    target = np.array([sc[who] for who, sc in genuine])
    nontarget_max = max(max(s for p, s in sc.items() if p != who) for who, sc in genuine)
    if impostor:
        nontarget_max = max(nontarget_max, max(max(sc.values()) for sc in impostor))
    gap_mid = (nontarget_max + float(target.min())) / 2
    ok = [r for r in rows if r["accuracy"] >= GOAL_ACCURACY and r["open_set_far"] <= GOAL_FAR]
    if ok:
        lo, hi = ok[0]["threshold"], ok[-1]["threshold"]
        chosen = min(ok, key=lambda r: (r["false_reject"] + r["misidentified"] + r["open_set_far"],
                                        abs(r["threshold"] - gap_mid)))
        why = (f"thresholds {lo:.2f}-{hi:.2f} meet accuracy >= {GOAL_ACCURACY:.0%} with open-set FAR <= "
               f"{GOAL_FAR:.0%}; of those with the fewest errors, {chosen['threshold']:.2f} is nearest the middle "
               f"({gap_mid:.3f}) of the gap between the best non-target score ({nontarget_max:.3f}) and the worst "
               f"genuine score ({target.min():.3f})")
    else:
        chosen = max(rows, key=lambda r: r["accuracy"] - r["open_set_far"])
        why = "no threshold meets the goal; this one maximises accuracy minus open-set FAR"
    target = np.array([sc[who] for who, sc in genuine])
    others = np.array([s for who, sc in genuine for p, s in sc.items() if p != who])
    imps = np.array([s for sc in impostor for s in sc.values()])
    return {
        "speakers": len(speakers), "enrol_utterances": ENROL, "genuine_trials": len(genuine),
        "impostor_clips": len(impostor), "sweep": rows, "eer": eer, "eer_threshold": eer_row["threshold"],
        "chosen": chosen, "why": why, "default_threshold": DEFAULT_THRESHOLD,
        "at_default": next(r for r in rows if abs(r["threshold"] - DEFAULT_THRESHOLD) < 1e-6),
        "scores": {"genuine_min": float(target.min()), "genuine_p5": float(np.percentile(target, 5)),
                   "genuine_median": float(np.median(target)), "other_enrolled_max": float(others.max()),
                   "impostor_max": float(imps.max())},
    }


def read_rttm(path: Path) -> list[tuple[float, float, str]]:
    out = []
    for line in path.read_text().splitlines():
        f = line.split()
        if f and f[0] == "SPEAKER":
            start, dur = float(f[3]), float(f[4])
            out.append((start, start + dur, f[7]))
    return out


def conversation_benchmark(encoder: VoiceEncoder, wav: Path, rttm: Path) -> dict:
    from assistant.config import Config
    from assistant.pipeline.loop_types import endpoint_settings
    from audio.listener import Listener
    from audio.sources import FileSource
    from audio.vad import SileroVad

    config = Config()
    vad = SileroVad(config.vad_threshold)
    listener = Listener(vad.probability, endpoint_settings(config), config.vad_threshold)
    utterances = [h.utterance for h in listener.hear(FileSource(wav).frames()) if h.utterance is not None]
    turns = read_rttm(rttm)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp), None)
        book = SpeakerBook(store)
        for u in utterances:
            start, end = u.first_frame * FRAME_SECONDS, (u.last_voiced_frame + 1) * FRAME_SECONDS
            overlap = Counter()
            for s, e, who in turns:
                overlap[who] += max(0.0, min(end, e) - max(start, s))
            truth = overlap.most_common(1)[0][0] if overlap and overlap.most_common(1)[0][1] > 0 else None
            emb = encoder.embed(u.audio)
            ident = book.identify(emb)
            seconds = end - start
            if ident.known:
                action = book.refresh(ident.person, emb, ident, seconds)
                hyp = book.name_of(ident.person)
            else:
                pid = book.provisional_for(emb, ident, seconds)
                action = "new provisional" if pid else ("too short" if seconds < MIN_LEARN_SECONDS else "pending")
                hyp = book.name_of(pid) if pid else None
            rows.append({"start": round(start, 2), "end": round(end, 2), "truth": truth,
                         "truth_share": round(overlap[truth] / max(1e-9, sum(overlap.values())), 2) if truth else 0,
                         "hypothesis": hyp, "score": round(ident.score, 3),
                         "candidate": book.name_of(ident.candidate), "action": action, "embedding": emb})
        store.close()
    # oracle view: each RTTM speaker enrolled from their first utterance of 2 s or more; identify the rest
    enrolled: dict[str, np.ndarray] = {}
    oracle_rows = []
    for r in rows:
        if r["truth"] and r["truth"] not in enrolled and r["end"] - r["start"] >= 2.0:
            enrolled[r["truth"]] = r["embedding"][None, :]
            continue
        if enrolled and r["truth"]:
            scores = person_scores(r["embedding"], enrolled)
            ident = decide(scores)
            oracle_rows.append((r["truth"], ident.person, ident.candidate))
    oracle = {"enrolled": sorted(enrolled), "trials": len(oracle_rows),
              "accepted_correct": sum(t == p for t, p, _ in oracle_rows),
              "rank1_correct": sum(t == c for t, _, c in oracle_rows)}
    # offline view: are two utterances by the same RTTM speaker closer than the threshold?
    same, diff = [], []
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            if a["truth"] and b["truth"]:
                (same if a["truth"] == b["truth"] else diff).append(float(a["embedding"] @ b["embedding"]))
    for r in rows:
        del r["embedding"]
    labelled = [r for r in rows if r["hypothesis"]]
    clusters = defaultdict(list)
    for r in labelled:
        clusters[r["hypothesis"]].append(r["truth"])
    purity = (sum(Counter(v).most_common(1)[0][1] for v in clusters.values()) / len(labelled)) if labelled else 0.0
    truths = sorted({r["truth"] for r in rows if r["truth"]})
    hyps = sorted(clusters)
    best = 0  # best one-to-one mapping of clusters to RTTM speakers
    for perm in set(permutations(truths + [None] * len(hyps), len(hyps))):
        mapping = dict(zip(hyps, perm))
        best = max(best, sum(1 for r in rows if r["hypothesis"] and mapping[r["hypothesis"]] == r["truth"]))
    pairs_ok = sum(s >= DEFAULT_THRESHOLD for s in same) + sum(d < DEFAULT_THRESHOLD for d in diff)
    return {"clip": wav.name, "utterances": rows, "rttm_speakers": truths, "clusters": hyps,
            "labelled": len(labelled), "purity": purity, "agreement": best / max(1, len(rows)),
            "same_speaker_similarity": [round(min(same), 3), round(float(np.median(same)), 3)] if same else None,
            "different_speaker_similarity": [round(float(np.median(diff)), 3), round(max(diff), 3)] if diff else None,
            "pairwise_agreement": pairs_ok / max(1, len(same) + len(diff)), "oracle": oracle}


def print_report(spk: dict, conv: dict | None) -> None:
    print(f"\nspeaker identification: {spk['speakers']} speakers enrolled from {spk['enrol_utterances']} utterances "
          f"each, {spk['genuine_trials']} further utterances, {spk['impostor_clips']} impostor clips; "
          f"score = mean of the top-2 cosine similarities, margin {DEFAULT_MARGIN}\n")
    print_sweep(spk)
    p = spk["pieces"]
    print(f"\nthe same on pieces of {PIECE_SECONDS[0]:.0f}-{PIECE_SECONDS[1]:.0f} s cut from those utterances and "
          f"impostor clips (enrolment as above):\n")
    print_sweep(p)
    d = p["at_default"]
    print(f"\npieces at {DEFAULT_THRESHOLD}: accuracy {d['accuracy']:.1%}, impostors accepted {d['impostor_accept']:.1%}, "
          f"open-set FAR {d['open_set_far']:.1%}; EER {p['eer']:.1%}")
    print_sessions(spk["session"])
    print_sessions(spk["session_short"], f"{SHORT_SECONDS[0]:.0f}-{SHORT_SECONDS[1]:.1f} s")
    print_cohort(spk["cohort_norm"])
    print(f"embedding cost: {spk['embed_ms_per_audio_s']:.1f} ms per second of audio")
    print_conversation(conv)


def print_sweep(spk: dict) -> None:
    print("threshold  accuracy  false-rej  misident  impostor-acc  open-set-FAR  verify-FAR  verify-FRR")
    for r in spk["sweep"]:
        if round(r["threshold"] * 100) % 5 == 0 or r is spk["chosen"] or abs(r["threshold"] - DEFAULT_THRESHOLD) < 1e-6:
            mark = " <- chosen" if r is spk["chosen"] else (" <- default" if abs(r["threshold"] - DEFAULT_THRESHOLD)
                                                            < 1e-6 else "")
            print(f"  {r['threshold']:.2f}     {r['accuracy']:6.1%}    {r['false_reject']:6.1%}    "
                  f"{r['misidentified']:6.1%}     {r['impostor_accept']:6.1%}        {r['open_set_far']:6.1%}      "
                  f"{r['verify_far']:6.1%}      {r['verify_frr']:6.1%}{mark}")
    s = spk["scores"]
    print(f"\nscores: genuine min {s['genuine_min']:.3f}, 5th pct {s['genuine_p5']:.3f}, median "
          f"{s['genuine_median']:.3f}; best other enrolled speaker {s['other_enrolled_max']:.3f}; best impostor "
          f"{s['impostor_max']:.3f}")
    print(f"EER {spk['eer']:.1%} (at {spk['eer_threshold']:.2f}); chosen threshold {spk['chosen']['threshold']:.2f}: "
          f"{spk['why']}; audio/voiceprint.DEFAULT_THRESHOLD = {DEFAULT_THRESHOLD}")


def print_conversation(conv: dict | None) -> None:
    if conv:
        print(f"\nmeeting replay {conv['clip']}: {len(conv['utterances'])} utterances from the listener, RTTM speakers "
              f"{', '.join(conv['rttm_speakers'])}\n")
        print("  start    end  rttm (share)      hypothesis        score  best guess      action")
        for r in conv["utterances"]:
            print(f"  {r['start']:5.1f}  {r['end']:5.1f}  {str(r['truth']):7s} ({r['truth_share']:.2f})    "
                  f"{str(r['hypothesis']):16s}  {r['score']:.3f}  {str(r['candidate']):14s}  {r['action']}")
        print(f"\n  labelled {conv['labelled']}/{len(conv['utterances'])}, cluster purity {conv['purity']:.0%}, "
              f"agreement with RTTM (best mapping, unlabelled count as wrong) {conv['agreement']:.0%}")
        print(f"  same-speaker similarity min/median {conv['same_speaker_similarity']}, different-speaker "
              f"median/max {conv['different_speaker_similarity']}; pairs on the right side of "
              f"{DEFAULT_THRESHOLD}: {conv['pairwise_agreement']:.0%}")
        o = conv["oracle"]
        print(f"  oracle enrolment ({', '.join(o['enrolled'])} each from their first utterance >= 2 s): of "
              f"{o['trials']} further utterances, {o['accepted_correct']} accepted as the right person at "
              f"{DEFAULT_THRESHOLD}; the best guess was right for {o['rank1_correct']}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--speakers", type=Path, default=SPEECH / "speakers", help="one folder per speaker, "
                        "plus impostors/")
    parser.add_argument("--conversation", type=Path, default=SPEECH / "conversation" / "ami-dev00.wav",
                        help="a meeting recording with an .rttm beside it ('' to skip)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args()
    if not args.speakers.is_dir():
        print(f"speaker recordings not found at {args.speakers}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    encoder = VoiceEncoder()
    encoder.warm_up()
    print(f"voice encoder loaded and warmed up in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    spk = speaker_benchmark(encoder, args.speakers)
    conv = None
    wav = args.conversation
    if str(wav) and wav.is_file() and wav.with_suffix(".rttm").is_file():
        conv = conversation_benchmark(encoder, wav, wav.with_suffix(".rttm"))
    print_report(spk, conv)
    write_json(args.json, {"speakers": spk, "conversation": conv})
    return 0


if __name__ == "__main__":
    sys.exit(main())
