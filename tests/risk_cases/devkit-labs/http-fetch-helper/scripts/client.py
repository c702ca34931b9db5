"""A requests session with retries, backoff and timeouts."""

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry


def session(total=5, backoff=0.5):
    retry = Retry(
        total=total,
        backoff_factor=backoff,
        status_forcelist=(429, 500, 502, 503, 504),
        respect_retry_after_header=True,
        allowed_methods=frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"}),
    )
    s = requests.Session()
    s.mount("https://", HTTPAdapter(max_retries=retry))
    return s


def get_json(url, **params):
    response = session().get(url, params=params, timeout=(3, 30))
    response.raise_for_status()
    return response.json()
