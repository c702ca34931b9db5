"""Layered configuration: defaults, TOML file, APP_* environment variables, flags."""

import difflib
import os
import tomllib
from pathlib import Path

DEFAULTS = {"host": "127.0.0.1", "port": 8000, "debug": False, "log_level": "info"}


def load(path="config.toml", flags=None):
    config = dict(DEFAULTS)
    file = Path(path)
    if file.exists():
        data = tomllib.loads(file.read_text(encoding="utf-8"))
        for key, value in data.items():
            if key not in DEFAULTS:
                near = difflib.get_close_matches(key, DEFAULTS, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise ValueError(f"{file}: unknown key {key!r}{hint}")
            config[key] = value
    for key in DEFAULTS:
        env = os.environ.get(f"APP_{key.upper()}")
        if env is not None:
            config[key] = type(DEFAULTS[key])(env) if not isinstance(DEFAULTS[key], bool) else env == "1"
    config.update({k: v for k, v in (flags or {}).items() if v is not None})
    return config
