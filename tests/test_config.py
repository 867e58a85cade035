import pytest

from assistant.config import Config, load_config
from assistant.errors import HearthError


def write(tmp_path, text):
    p = tmp_path / "config.toml"
    p.write_text(text)
    return p


def test_defaults_without_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("HEARTH_CONFIG", str(tmp_path / "absent.toml"))  # the usual place, nothing there yet
    c = load_config()
    assert c.end_silence_ms == 500 and c.max_utterance_s == 30.0 and c.llm_endpoint == ""


def test_a_config_file_named_explicitly_must_exist(tmp_path):
    with pytest.raises(HearthError, match="config file not found"):
        load_config(tmp_path / "absent.toml")


def test_file_then_flags(tmp_path):
    p = write(tmp_path, "[audio]\nend_silence_ms = 700\ninput_device = 'USB'\n[models]\nthreads = 4\n")
    c = load_config(p, {"end_silence_ms": 600, "threads": None})
    assert c.end_silence_ms == 600 and c.threads == 4 and c.input_device == "USB"


@pytest.mark.parametrize("text, words", [
    ("[audio]\nend_silence_ms = -5\n", "end_silence_ms"),
    ("[audio]\nend_silence_ms = 'soon'\n", "end_silence_ms"),
    ("[audio]\nloudness = 3\n", "unknown setting audio.loudness"),
    ("[speakers]\nx = 1\n", "unknown section"),
    ("[models]\nllm_model = '/no/such/model.gguf'\n", "llm_model path does not exist"),
    ("[models]\nllm_endpoint_timeout_s = 0\n", "llm_endpoint_timeout_s must be between 1 and 600"),
    ("[assistant]\nmax_reply_sentences = 0\n", "max_reply_sentences must be at least 1"),
    ("[models\n", "not valid TOML"),
])
def test_bad_values_give_one_line_errors(tmp_path, text, words):
    with pytest.raises(HearthError) as info:
        load_config(write(tmp_path, text))
    assert words in str(info.value) and "\n" not in str(info.value)


def test_environment_moves_data_and_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HEARTH_DATA_DIR", str(tmp_path / "d"))
    assert Config().data_path == tmp_path / "d"
