"""Bad input gets a clear one-line error and a non-zero exit; odd but valid audio just works."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import soundfile as sf

from assistant.modes.cli import main
from assistant.modes.replay import replay_file
from audio.sources import read_audio_file
from conftest import ROOT
from wer import wer

CLIP = "asr/librivox-ss01-0930.wav"
CLIP_TEXT = "he might even have been made amiable himself"


def run_cli(capsys, *args) -> tuple[int, str]:
    code = main(list(args))
    err = capsys.readouterr().err.strip()
    return code, err


def one_line_error(err: str) -> str:
    lines = [l for l in err.splitlines() if l.startswith("hearth: error:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.fixture
def bad_files(tmp_path):
    empty = tmp_path / "empty.wav"
    empty.write_bytes(b"")
    corrupt = tmp_path / "corrupt.wav"
    corrupt.write_bytes(b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(range(200)))
    text = tmp_path / "notes.wav"
    text.write_text("these are not the samples you are looking for\n" * 20)
    return {"missing": tmp_path / "nope.wav", "empty": empty, "corrupt": corrupt, "not audio": text}


@pytest.mark.parametrize("case, words", [("missing", "not found"), ("empty", "empty"),
                                         ("corrupt", "not a readable audio file"),
                                         ("not audio", "not a readable audio file")])
def test_bad_audio_files_are_refused_before_models_load(capsys, tmp_path, bad_files, case, words):
    code, err = run_cli(capsys, "replay", str(bad_files[case]), "--out", str(tmp_path / "out"))
    assert code == 2
    assert words in one_line_error(err)


def test_unwritable_output_folder(capsys, speech_dir, engines, test_config, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    from audio.sources import AudioInputError

    with pytest.raises(AudioInputError, match="cannot write to output folder"):
        replay_file(speech_dir / CLIP, blocker / "out", engines, test_config)


def test_missing_model_path(capsys, speech_dir, tmp_path):
    code, err = run_cli(capsys, "replay", str(speech_dir / CLIP), "--out", str(tmp_path), "--llm-model",
                        str(tmp_path / "absent.gguf"))
    assert code == 2 and "llm_model path does not exist" in one_line_error(err)


def test_a_file_that_is_not_a_gguf(capsys, speech_dir, tmp_path):
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"not a model" * 100)
    code, err = run_cli(capsys, "replay", str(speech_dir / CLIP), "--out", str(tmp_path / "o"), "--llm-model", str(fake))
    assert code == 2 and "not a GGUF" in one_line_error(err)


def test_whisper_folder_without_a_model(capsys, speech_dir, tmp_path):
    code, err = run_cli(capsys, "replay", str(speech_dir / CLIP), "--out", str(tmp_path / "o"), "--asr-model", str(tmp_path))
    assert code == 2 and "no faster-whisper model" in one_line_error(err)


def test_bundled_llm_checksum_mismatch_is_an_error_not_a_load(monkeypatch, tmp_path):
    from models import ModelError, bundled

    monkeypatch.setattr(bundled, "LLM_SHA256", "0" * 64)
    with pytest.raises(ModelError, match="failed its checksum"):
        bundled.bundled_llm(tmp_path, progress=False)
    assert not any(tmp_path.iterdir())  # no half-written or wrong file left behind


def test_live_mode_without_portaudio_or_devices_explains_itself(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "assistant.modes.cli", "live"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert proc.returncode == 2
    line = one_line_error(proc.stderr)
    assert "PortAudio" in line or "no audio input device" in line or "input device" in line


# -- odd but valid audio ---------------------------------------------------------------------

def _variants(source: np.ndarray, rate: int):
    from audio.convert import resample

    at = lambda r: resample(source, rate, r)  # noqa: E731
    yield "8k.wav", at(8000), 8000, "PCM_16"
    stereo = np.stack([at(44100), at(44100) * 0.9], axis=1)
    yield "44k1-stereo-24bit.wav", stereo, 44100, "PCM_24"
    yield "48k-float.wav", at(48000), 48000, "FLOAT"
    yield "quiet.wav", source * (0.02 / np.abs(source).max()), rate, "PCM_16"
    yield "clipped.wav", np.clip(source * 8, -1, 1), rate, "PCM_16"
    yield "dc-offset.flac", np.clip(source + 0.2, -1, 1), rate, "PCM_16"


def test_odd_but_valid_audio_just_works(speech_dir, engines, test_config, tmp_path):
    source = read_audio_file(speech_dir / CLIP)
    for name, samples, rate, subtype in _variants(source, 16000):
        path = tmp_path / name
        sf.write(str(path), samples, rate, subtype=subtype)
        result = replay_file(path, tmp_path / f"out-{name}", engines, test_config)
        heard = " ".join(r.heard for r in result.records)
        assert wer(CLIP_TEXT, heard) <= 0.35, (name, heard)
        assert result.answered, name
