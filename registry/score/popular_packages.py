"""Widely installed package names, the targets typo-squatters imitate (threats.md family 9).

A package whose name is one typo away from one of these (a letter added, dropped, changed or two
swapped, `-` and `_` confused, a digit for a letter) and is not itself one of them is the classic
shape of a typo-squat. The lists are the best-known names of the two registries skills install from
most, curated here rather than downloaded: a build never reaches the network.
"""

from __future__ import annotations

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
