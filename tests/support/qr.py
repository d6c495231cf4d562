"""Reading QR codes back in tests, with an independent decoder (zxing-cpp).

Our QR codes come as segno's SVG (rows of horizontal strokes: `M2 2.5h7m4 0h1...`) or as
its half-block text for terminals; each is turned back into squares here and the squares
into an image that zxing-cpp decodes: the test checks what a phone would read.
"""

from __future__ import annotations

import re

Matrix = list[list[bool]]  # True: a dark square
SCALE = 4  # pixels per square in the image given to the decoder


def decode(matrix: Matrix) -> list[str]:
    """The texts zxing-cpp reads in the image of `matrix` (a light margin added)."""
    import zxingcpp

    margin = 4
    width = len(matrix[0]) + 2 * margin
    light = [False] * width
    rows = [light] * margin + [[False] * margin + row + [False] * margin for row in matrix]
    rows += [light] * margin
    pixels = b"".join(
        bytes(0 if dark else 255 for dark in row for _ in range(SCALE))
        for row in rows
        for _ in range(SCALE)
    )
    image = zxingcpp.ImageView(pixels, width * SCALE, len(rows) * SCALE, zxingcpp.ImageFormat.Lum)
    return [found.text for found in zxingcpp.read_barcodes(image)]


def svg_matrix(svg: str) -> Matrix:
    """The squares of segno's SVG: its viewBox's size, the dark path's strokes."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert box, svg[:200]
    width, height = int(box.group(1)), int(box.group(2))
    path = re.search(r'<path stroke="#000" d="([^"]+)"', svg)
    assert path, svg[:400]
    matrix = [[False] * width for _ in range(height)]
    x = y = 0.0
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?: (-?[\d.]+))?", path.group(1)):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:  # h: a stroke one square high along the row at y
            end = x + float(a) if command == "h" else float(a)
            for column in range(int(x), int(end)):
                matrix[int(y)][column] = True
            x = end
    return matrix


HALF_BLOCKS = {" ": (True, True), "\u2580": (False, True), "\u2584": (True, False),
               "\u2588": (False, False)}  # segno's compact output: light squares drawn


def text_matrix(text: str) -> Matrix:
    """The squares of segno's compact terminal text (two rows of squares per line)."""
    matrix: Matrix = []
    for line in text.splitlines():
        if not line or any(c not in HALF_BLOCKS for c in line):
            continue
        pairs = [HALF_BLOCKS[c] for c in line]
        matrix.append([top for top, _ in pairs])
        matrix.append([bottom for _, bottom in pairs])
    return matrix
