"""Every benchmark's --json FILE: the report written as JSON (anything else as its string), and said."""

from __future__ import annotations

import json
from pathlib import Path


def write_json(path: Path | None, report) -> None:
    """Nothing without a path (--json not given)."""
    if path is None:
        return
    Path(path).write_text(json.dumps(report, indent=1, default=str))
    print(f"wrote {path}")
