"""Widely installed package names, the targets typo-squatters imitate (threats.md family 9).

A package whose name is one typo away from one of these (a letter added, dropped, changed or two
swapped, `-` and `_` confused, a digit for a letter) and is not itself one of them is the classic
shape of a typo-squat. The lists are the best-known names of the two registries skills install from
most, curated here rather than downloaded: a build never reaches the network.
"""

from __future__ import annotations

import functools
import unicodedata

PYPI = frozenset(
    """
    aiohttp anthropic anyio attrs awscli beautifulsoup4 black boto3 botocore cachetools certifi cffi chardet
    charset-normalizer click colorama coverage cryptography dateparser django docker fastapi filelock flask
    fsspec gitpython google-api-core google-auth grpcio gunicorn h11 httpcore httpx huggingface-hub idna
    importlib-metadata jinja2 jmespath jsonschema keras langchain lxml markdown markupsafe matplotlib mypy
    networkx nltk numpy openai openpyxl opencv-python packaging pandas paramiko pillow pip platformdirs
    pluggy protobuf psutil psycopg2 psycopg2-binary pyarrow pyasn1 pycparser pydantic pygments pyjwt
    pymongo pymysql pyopenssl pyparsing pypdf pypdf2 pyserial pytest python-dateutil python-docx
    python-dotenv python-pptx pytz pyyaml redis regex requests requests-oauthlib rich rsa ruff s3transfer
    scikit-learn scipy selenium setuptools simplejson six sqlalchemy starlette sympy tabulate tenacity
    tensorflow termcolor tiktoken tokenizers toml tomli torch tqdm transformers typer typing-extensions
    tzdata ujson urllib3 uvicorn virtualenv websocket-client websockets werkzeug wheel xlrd xlsxwriter
    yarl zipp playwright pyperclip pyautogui beautifulsoup lxml-html-clean
    """.split()
)

NPM = frozenset(
    """
    axios babel-core body-parser chalk cheerio chokidar classnames commander cors cross-env cross-spawn
    date-fns debug dotenv esbuild eslint express fs-extra glob graphql inquirer jest jquery js-yaml
    jsonwebtoken lodash lodash.merge minimist mkdirp moment mongoose morgan nanoid next node-fetch nodemon
    openai ora playwright postcss prettier prop-types puppeteer qs react react-dom redux request rimraf
    rxjs semver sharp socket.io styled-components supports-color tailwindcss ts-node tslib typescript
    underscore uuid vite vue webpack ws yargs zod zx @anthropic-ai/sdk @modelcontextprotocol/sdk
    @types/node @playwright/test coffee-script electron crypto-js bcrypt bcryptjs mysql mysql2 pg sqlite3
    better-sqlite3 redis ioredis colors event-stream ua-parser-js node-ipc discord.js telegraf ethers web3
    """.split()
)

BY_MANAGER = {"pip": PYPI, "pypi": PYPI, "npm": NPM}

# Characters a reader takes for another in a package name: capital I and 1 for l, 0 for o (and, in
# lookalike, Cyrillic and Greek letters for their Latin twins). Nobody mistypes these; a name built
# from them is made to be read as the popular one.
_LOOKALIKE_ASCII = {"I": "l", "1": "l", "0": "o", "|": "l"}


@functools.lru_cache(maxsize=1024)
def lookalike(name: str) -> tuple[str, tuple[str, ...]]:
    """(the name as a reader sees it, lower-cased; the look-alike characters in it, as "I for l"), or
    (name lower-cased, ()) when it has none."""
    seen: list[str] = []
    swaps: list[str] = []
    for ch in name:
        latin = _LOOKALIKE_ASCII.get(ch) or (_latin(ch) if not ch.isascii() else "")
        if latin:
            seen.append(latin)
            label = (
                f"{ch} for {latin}"
                if ch.isascii()
                else f"{unicodedata.name(ch, f'U+{ord(ch):04X}').title()} for {latin}"
            )
            if label not in swaps:
                swaps.append(label)
        else:
            seen.append(ch.lower())
    return "".join(seen), tuple(swaps)


def _latin(ch: str) -> str:
    from confusable_homoglyphs import confusables  # imported on first use: its tables take 30 ms to load

    for entry in confusables.is_confusable(ch, greedy=True, preferred_aliases=["latin"]) or []:
        for glyph in entry.get("homoglyphs", []):
            candidate = glyph.get("c", "")
            if len(candidate) == 1 and candidate.isascii() and candidate.isalnum():
                return candidate.lower()
    return ""
