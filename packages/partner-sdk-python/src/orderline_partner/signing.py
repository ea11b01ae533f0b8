"""Request signatures: the string-to-sign of versions 1 and 2 and the X-SIGNATURE value."""

from __future__ import annotations

import base64
import hashlib
from typing import Dict, Literal, NamedTuple, Union

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

SignatureVersion = Literal[1, 2]


def string_to_sign_v1(client_id: str, timestamp: str) -> str:
    """Version 1, the seed's: ``client_id|timestamp``. It covers neither the body nor the path."""
    return f"{client_id}|{timestamp}"


def body_digest(body: Union[str, bytes] = b"") -> str:
    """Lowercase hex SHA-256 of the exact body bytes (of nothing, for a request without one)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    return hashlib.sha256(data).hexdigest()


def string_to_sign_v2(
    client_id: str, timestamp: str, method: str, target: str, body: Union[str, bytes] = b""
) -> str:
    """Version 2: ``v2``, client_id, X-TIMESTAMP, METHOD, path with query, hex SHA-256 of the
    body, joined by "\\n" with no trailing newline."""
    return "\n".join(["v2", client_id, timestamp, method.upper(), target, body_digest(body)])


def string_to_sign(
    version: SignatureVersion,
    client_id: str,
    timestamp: str,
    method: str,
    target: str,
    body: Union[str, bytes] = b"",
) -> str:
    if version == 2:
        return string_to_sign_v2(client_id, timestamp, method, target, body)
    return string_to_sign_v1(client_id, timestamp)


def private_key_of(key: Union[str, bytes, rsa.RSAPrivateKey]) -> rsa.RSAPrivateKey:
    """An RSA private key from PKCS#8 or PKCS#1 PEM text, or a loaded key as is."""
    if isinstance(key, rsa.RSAPrivateKey):
        return key
    data = key.encode("utf-8") if isinstance(key, str) else key
    loaded = serialization.load_pem_private_key(data, password=None)
    if not isinstance(loaded, rsa.RSAPrivateKey):
        raise TypeError("private_key must be an RSA private key")
    return loaded


def sign_text(private_key: rsa.RSAPrivateKey, text: str) -> str:
    """base64(SHA256withRSA(private_key, text)): the X-SIGNATURE value."""
    raw = private_key.sign(text.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    return base64.b64encode(raw).decode("ascii")


class SignedHeaders(NamedTuple):
    headers: Dict[str, str]
    #: What was signed, for debugging.
    string_to_sign: str


def signature_headers(
    private_key: rsa.RSAPrivateKey,
    version: SignatureVersion,
    client_id: str,
    timestamp: str,
    method: str,
    target: str,
    body: Union[str, bytes] = b"",
) -> SignedHeaders:
    """X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE and, for version 2, X-SIGNATURE-VERSION."""
    text = string_to_sign(version, client_id, timestamp, method, target, body)
    headers = {
        "X-CLIENT-ID": client_id,
        "X-TIMESTAMP": timestamp,
        "X-SIGNATURE": sign_text(private_key, text),
    }
    if version == 2:
        headers["X-SIGNATURE-VERSION"] = "2"
    return SignedHeaders(headers, text)
