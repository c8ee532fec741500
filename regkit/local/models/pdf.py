"""A minimal one-page PDF writer (Helvetica text lines), enough for the register's generated documents."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["text_pdf"]


def _escape(line: str) -> str:
    # Standard 14 fonts use WinAnsi; keep Latin-1 and replace what it cannot show.
    text = line.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(title: str, lines: Iterable[str]) -> bytes:
    """A valid single-page A4 PDF showing ``title`` and ``lines``.

    Examples
    --------
    >>> data = text_pdf("Gesellschafterliste", ["Muster GmbH"])
    >>> data[:8], data.rstrip().endswith(b"%%EOF")
    (b'%PDF-1.4', True)
    """
    commands = ["BT", "/F1 16 Tf", "56 780 Td", f"({_escape(title)}) Tj", "/F1 10 Tf", "0 -28 Td"]
    for line in lines:
        commands += [f"({_escape(line)}) Tj", "0 -14 Td"]
    commands.append("ET")
    stream = "\n".join(commands).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
