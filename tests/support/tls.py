"""A self-signed TLS certificate for 127.0.0.1, made with the openssl command."""

from __future__ import annotations

import subprocess
from pathlib import Path


def self_signed_certificate(directory: Path) -> tuple[Path, Path]:
    """Write cert.pem and key.pem (RSA 2048, valid two days, CN and SAN 127.0.0.1) into
    `directory`; return (certificate, key)."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key
