"""Signatures in the OpenSSF Model Signing format (`model-signing` on PyPI): keys, signing, and reading a signature.

A signature is a Sigstore bundle (v0.3 JSON) over a DSSE envelope holding an in-toto statement that lists
every signed file by path with its sha256, as `model_signing sign key FOLDER` writes it: `model_signing
verify key FOLDER --signature S --public_key K` accepts ours unchanged (tests/test_signing.py runs it).
We sign from the bytes the build publishes, without reading them back from disk, and with deterministic
ECDSA (RFC 6979): the same files and key give the same signature bytes, so a cold and an incremental build
write the same site and an unchanged skill keeps its signature file.

The key is an elliptic-curve private key (P-256, P-384 or P-521, the curves model_signing accepts) in PEM,
given to the build as SKILL_REGISTRY_SIGNING_KEY (the PEM text), SKILL_REGISTRY_SIGNING_KEY_FILE (a path)
or `--signing-key FILE`; never read from the repository. Its id is the sha256 of the public key's PEM,
the `hint` model_signing records in the bundle.

The format is written and read here with the cryptography library alone: model_signing (with sigstore, protobuf
and pydantic) takes longer to import than the corpus takes to sign and verify. model_signing is the tests' oracle
(tests/test_signing.py): its CLI and its verifier accept our signatures, and we accept what it signs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

KEY_ENV = "SKILL_REGISTRY_SIGNING_KEY"
KEY_FILE_ENV = "SKILL_REGISTRY_SIGNING_KEY_FILE"
PUBLIC_KEY_PATH = ".well-known/skill-registry/signing-key.pem"  # the public key's stable address on the site
SIGNATURES_DIR = "signatures"  # a skill's signature: signatures/<id>.sig
SIGNED_INDEXES = ("index.json", ".well-known/agent-skills/index.json", ".well-known/skills/index.json")
ALGORITHM = "ecdsa-{curve}-sha{bits}"
FORMAT = "OpenSSF Model Signing v1.0: Sigstore bundle v0.3, DSSE, in-toto statement of every file's sha256"
UNSIGNED_NOTE = (
    "note: no signing key (SKILL_REGISTRY_SIGNING_KEY, SKILL_REGISTRY_SIGNING_KEY_FILE or --signing-key): "
    "the site is unsigned"
)
_HASHES = {256: "256", 384: "384", 521: "512"}


class SigningKeyError(ValueError):
    pass


@dataclass(frozen=True)
class SigningKey:
    """A private key for the build. Only its id is in the repr (BuildOptions' repr is part of the build's
    fingerprint: another key makes another site), never the key itself."""

    key_id: str  # sha256 of the public key's PEM
    algorithm: str
    public_pem: bytes = field(repr=False)
    private_pem: bytes = field(repr=False)
    password: bytes | None = field(default=None, repr=False)

    @classmethod
    def from_pem(cls, private_pem: bytes, password: bytes | None = None) -> SigningKey:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            private = serialization.load_pem_private_key(private_pem, password)
        except (ValueError, TypeError) as err:
            raise SigningKeyError(f"not a PEM private key: {err}") from err
        if not isinstance(private, ec.EllipticCurvePrivateKey) or private.curve.key_size not in _HASHES:
            raise SigningKeyError("the signing key must be an elliptic-curve key on P-256, P-384 or P-521")
        public_pem = public_pem_of(private)
        size = private.curve.key_size
        algorithm = ALGORITHM.format(curve=f"p{size}", bits=_HASHES[size])
        return cls(key_id(public_pem), algorithm, public_pem, private_pem, password)


def public_pem_of(private) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def key_id(public_pem: bytes) -> str:
    """The key's id: what model_signing writes as the bundle's public-key hint."""
    from cryptography.hazmat.primitives import serialization

    public = serialization.load_pem_public_key(public_pem)
    canonical = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(canonical).hexdigest()


def load_signing_key(path: Path | None = None, environ: Mapping[str, str] | None = None) -> SigningKey | None:
    """The build's key: `path` (--signing-key), else SKILL_REGISTRY_SIGNING_KEY, else
    SKILL_REGISTRY_SIGNING_KEY_FILE; None when none is given."""
    environ = os.environ if environ is None else environ
    if path is None and environ.get(KEY_ENV, "").strip():
        return SigningKey.from_pem(environ[KEY_ENV].strip().encode("utf-8") + b"\n")
    if path is None and environ.get(KEY_FILE_ENV, "").strip():
        path = Path(environ[KEY_FILE_ENV].strip())
    if path is None:
        return None
    try:
        return SigningKey.from_pem(Path(path).expanduser().read_bytes())
    except OSError as err:
        raise SigningKeyError(f"cannot read the signing key {path}: {err.strerror}") from err


def generate_key_pair() -> tuple[bytes, bytes]:
    """A new P-256 key pair: (private PEM, unencrypted PKCS#8; public PEM)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    private_pem = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return private_pem, public_pem_of(private)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://model_signing/signature/v1.0"
PAYLOAD_TYPE = "application/vnd.in-toto+json"
BUNDLE_MEDIA_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json"
SERIALIZATION = {"method": "files", "hash_type": "sha256", "allow_symlinks": False}


def _hash_for(curve_size: int):
    from cryptography.hazmat.primitives import hashes

    return {256: hashes.SHA256(), 384: hashes.SHA384(), 521: hashes.SHA512()}[curve_size]


def pae(payload: bytes) -> bytes:
    """DSSE's pre-authentication encoding of an in-toto payload: the bytes the signature is over."""
    kind = PAYLOAD_TYPE.encode("ascii")
    return b"DSSEv1 %d %b %d %b" % (len(kind), kind, len(payload), payload)


def root_digest(digests: Iterable[str]) -> str:
    """model_signing's digest of a whole model: sha256 over every file's raw digest, in the listed order."""
    hasher = hashlib.sha256()
    for digest in digests:
        hasher.update(bytes.fromhex(digest))
    return hasher.hexdigest()


def statement(name: str, files: Iterable[tuple[str, str]]) -> bytes:
    """The in-toto statement model_signing signs for a folder called `name` holding `files` ((path, sha256 hex)),
    resources in its order (by path parts); a file signed on its own is the path "."."""
    ordered = sorted(files, key=lambda item: PurePosixPath(item[0]).parts)
    document = {
        "_type": STATEMENT_TYPE,
        "subject": [{"name": name, "digest": {"sha256": root_digest(digest for _, digest in ordered)}}],
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "serialization": SERIALIZATION,
            "resources": [{"name": path, "algorithm": "sha256", "digest": digest} for path, digest in ordered],
        },
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class Signer:
    """Signs file lists with one key: the Sigstore bundle `model_signing sign key` writes, made here with the
    cryptography library alone (model_signing, sigstore and protobuf take longer to import than the corpus takes
    to sign). tests/test_signing.py holds it to model_signing: its CLI and its verifier accept what we write,
    and we read what it writes."""

    def __init__(self, key: SigningKey):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.key = key
        self._private = serialization.load_pem_private_key(key.private_pem, key.password)
        self._ecdsa = ec.ECDSA(_hash_for(self._private.curve.key_size), deterministic_signing=True)

    def sign(self, name: str, files: Iterable[tuple[str, str]]) -> bytes:
        """The signature of a folder called `name` holding exactly `files` ((path, sha256 hex))."""
        payload = statement(name, files)
        signature = self._private.sign(pae(payload), self._ecdsa)
        bundle = {
            "mediaType": BUNDLE_MEDIA_TYPE,
            "verificationMaterial": {"publicKey": {"hint": self.key.key_id}, "tlogEntries": []},
            "dsseEnvelope": {
                "payload": base64.b64encode(payload).decode("ascii"),
                "payloadType": PAYLOAD_TYPE,
                "signatures": [{"sig": base64.b64encode(signature).decode("ascii"), "keyid": ""}],
            },
        }
        return json.dumps(bundle, separators=(",", ":")).encode("ascii") + b"\n"


class SignatureError(ValueError):
    pass


class Verifier:
    """Reads signatures in model_signing's format made by one public key."""

    def __init__(self, public_pem: bytes):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        try:
            self._public = serialization.load_pem_public_key(public_pem)
        except ValueError as err:
            raise SignatureError(f"not a PEM public key: {err}") from err
        if not isinstance(self._public, ec.EllipticCurvePublicKey) or self._public.curve.key_size not in _HASHES:
            raise SignatureError("the public key must be an elliptic-curve key on P-256, P-384 or P-521")
        self.key_id = key_id(public_pem)
        self._ecdsa = ec.ECDSA(_hash_for(self._public.curve.key_size))

    def signed_files(self, signature: bytes) -> dict[str, str]:
        """What a signature signs, once it checks out with the key: path -> sha256 hex ("." for a single file).

        Raises SignatureError when it is not a model_signing bundle, not by this key, or not consistent."""
        from cryptography.exceptions import InvalidSignature

        try:
            bundle = json.loads(signature)
            if bundle["mediaType"] != BUNDLE_MEDIA_TYPE:
                raise SignatureError(f"not a Sigstore bundle v0.3 ({bundle['mediaType']})")
            if bundle["verificationMaterial"]["publicKey"]["hint"] != self.key_id:
                raise SignatureError("signed by another key")
            envelope = bundle["dsseEnvelope"]
            if envelope["payloadType"] != PAYLOAD_TYPE or len(envelope["signatures"]) != 1:
                raise SignatureError("not a DSSE envelope with one in-toto statement and one signature")
            payload = base64.b64decode(envelope["payload"], validate=True)
            try:
                self._public.verify(base64.b64decode(envelope["signatures"][0]["sig"]), pae(payload), self._ecdsa)
            except InvalidSignature as err:
                raise SignatureError("the signature does not match what it says it signs") from err
            document = json.loads(payload)
            if document.get("_type") != STATEMENT_TYPE or document.get("predicateType") != PREDICATE_TYPE:
                raise SignatureError("not a model_signing v1.0 statement")
            (subject,) = document["subject"]
            resources = document["predicate"]["resources"]
            if any(resource["algorithm"] != "sha256" for resource in resources):
                raise SignatureError("a file digest other than sha256")
            if root_digest(resource["digest"] for resource in resources) != subject["digest"]["sha256"]:
                raise SignatureError("the statement's digests do not add up to its subject's")
            return {resource["name"]: resource["digest"] for resource in resources}
        except SignatureError:
            raise
        except (ValueError, KeyError, TypeError, IndexError) as err:
            raise SignatureError(f"not a model_signing signature ({type(err).__name__}: {err})") from err


def signed_files(signature: bytes, public_pem: bytes) -> dict[str, str]:
    """What a signature by `public_pem` signs (Verifier.signed_files), for one signature."""
    return Verifier(public_pem).signed_files(signature)
