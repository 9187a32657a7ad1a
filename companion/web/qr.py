"""A small QR code encoder (byte mode, error correction L or M, versions 1-6) for the join link.

Written here so that the table needs no extra package and no internet to show its PIN as a code.
Versions 1-6 hold up to 106 bytes at level M, plenty for "http://192.168.1.20:8000/join#pin=1234".
Layout, Reed-Solomon and masking follow ISO/IEC 18004; an OpenCV decoder checks it in the tests.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

Matrix = list[list[bool]]

# (version, level) -> (error-correction codewords per block, number of blocks); all blocks
# are the same size up to version 6 at levels L and M.
EC_BLOCKS: dict[tuple[int, str], tuple[int, int]] = {
    (1, "L"): (7, 1), (2, "L"): (10, 1), (3, "L"): (15, 1),
    (4, "L"): (20, 1), (5, "L"): (26, 1), (6, "L"): (18, 2),
    (1, "M"): (10, 1), (2, "M"): (16, 1), (3, "M"): (26, 1),
    (4, "M"): (18, 2), (5, "M"): (24, 2), (6, "M"): (16, 4),
}
TOTAL_CODEWORDS = {1: 26, 2: 44, 3: 70, 4: 100, 5: 134, 6: 172}
LEVEL_BITS = {"L": 0b01, "M": 0b00}
MASKS: tuple[Callable[[int, int], bool], ...] = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)


class QRError(ValueError):
    """Text too long for the versions this encoder supports, or an unknown level."""


# -- Reed-Solomon over GF(256), primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 ----------------

_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _i in range(255):
    _EXP[_i] = _value
    _LOG[_value] = _i
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _mul(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def rs_remainder(data: list[int], degree: int) -> list[int]:
    """The `degree` error-correction codewords of a block."""
    generator = [1]
    for i in range(degree):  # multiply by (x - a^i)
        generator = [c ^ _mul(g, _EXP[i]) for g, c in zip([*generator, 0], [0, *generator],
                                                           strict=True)]
    generator = generator[::-1][1:]  # highest power first, leading 1 dropped
    remainder = [0] * degree
    for byte in data:
        factor = byte ^ remainder.pop(0)
        remainder.append(0)
        remainder = [r ^ _mul(g, factor) for r, g in zip(remainder, generator, strict=True)]
    return remainder


# -- data codewords ---------------------------------------------------------------------------


def _codewords(data: bytes, version: int, level: str) -> list[int]:
    ec_len, blocks = EC_BLOCKS[version, level]
    data_len = TOTAL_CODEWORDS[version] - ec_len * blocks
    bits = "0100" + f"{len(data):08b}" + "".join(f"{b:08b}" for b in data)
    bits += "0" * min(4, data_len * 8 - len(bits))
    bits += "0" * (-len(bits) % 8)
    words = [int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)]
    words += [(0xEC, 0x11)[i % 2] for i in range(data_len - len(words))]
    size = data_len // blocks
    split = [words[i * size:(i + 1) * size] for i in range(blocks)]
    ecc = [rs_remainder(block, ec_len) for block in split]
    return [b[i] for i in range(size) for b in split] + [e[i] for i in range(ec_len) for e in ecc]


def choose_version(length: int, level: str) -> int:
    for version in range(1, 7):
        ec_len, blocks = EC_BLOCKS[version, level]
        if 12 + 8 * length <= (TOTAL_CODEWORDS[version] - ec_len * blocks) * 8:
            return version
    raise QRError(f"{length} bytes do not fit a version-6 QR code at level {level}")


# -- the symbol -------------------------------------------------------------------------------


class _Symbol:
    def __init__(self, version: int) -> None:
        self.version = version
        self.size = 17 + 4 * version
        self.dark: Matrix = [[False] * self.size for _ in range(self.size)]
        self.fixed: Matrix = [[False] * self.size for _ in range(self.size)]
        self._function_patterns()

    def set(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.fixed[y][x] = True

    def _function_patterns(self) -> None:
        n = self.size
        for i in range(n):  # timing patterns
            self.set(6, i, i % 2 == 0)
            self.set(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (n - 4, 3), (3, n - 4)):  # finders with their separators
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < n and 0 <= y < n:
                        self.set(x, y, max(abs(dx), abs(dy)) not in (2, 4))
        if self.version >= 2:  # one alignment pattern, bottom right
            c = 4 * self.version + 10
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    self.set(c + dx, c + dy, max(abs(dx), abs(dy)) != 1)
        self.format_bits(0)  # reserve the format areas (and the dark module)

    def format_bits(self, bits: int) -> None:
        n = self.size

        def bit(i: int) -> bool:
            return bool((bits >> i) & 1)

        for i in range(6):
            self.set(8, i, bit(i))
        self.set(8, 7, bit(6))
        self.set(8, 8, bit(7))
        self.set(7, 8, bit(8))
        for i in range(9, 15):
            self.set(14 - i, 8, bit(i))
        for i in range(8):
            self.set(n - 1 - i, 8, bit(i))
        for i in range(8, 15):
            self.set(8, n - 15 + i, bit(i))
        self.set(8, n - 8, True)

    def place(self, codewords: list[int]) -> None:
        """Zig-zag the data bits up and down two-column strips, right to left."""
        n, i, total = self.size, 0, len(codewords) * 8
        right = n - 1
        while right >= 1:
            if right == 6:
                right = 5
            upward = ((right + 1) & 2) == 0
            for vert in range(n):
                y = n - 1 - vert if upward else vert
                for x in (right, right - 1):
                    if not self.fixed[y][x] and i < total:
                        self.dark[y][x] = bool((codewords[i >> 3] >> (7 - (i & 7))) & 1)
                        i += 1
            right -= 2

    def masked(self, mask: int, level: str) -> Matrix:
        test = MASKS[mask]
        out = [[d ^ (not f and test(x, y)) for x, (d, f) in enumerate(zip(dr, fr, strict=True))]
               for y, (dr, fr) in enumerate(zip(self.dark, self.fixed, strict=True))]
        saved = self.dark
        self.dark = out
        self.format_bits(format_word(level, mask))
        self.dark = saved
        return out


def format_word(level: str, mask: int) -> int:
    """The 15 format bits: level and mask, BCH(15,5) protected, XOR-masked."""
    data = (LEVEL_BITS[level] << 3) | mask
    rem = data << 10
    for shift in range(4, -1, -1):
        if rem & (1 << (shift + 10)):
            rem ^= 0x537 << shift
    return ((data << 10) | rem) ^ 0x5412


def penalty(m: Matrix) -> int:
    """The standard's score of how hard a masked symbol is to read (lower is better)."""
    n = len(m)
    score = 0
    lines = list(m) + [[m[y][x] for y in range(n)] for x in range(n)]
    finder = [True, False, True, True, True, False, True]
    for line in lines:
        run = 1
        for a, b in pairwise(line):
            run = run + 1 if a == b else 1
            if run == 5:
                score += 3
            elif run > 5:
                score += 1
        for i in range(n - 6):
            if line[i:i + 7] == finder:
                before = line[max(0, i - 4):i]
                after = line[i + 7:i + 11]
                if (len(before) == 4 and not any(before)) or (len(after) == 4 and not any(after)):
                    score += 40
    for y in range(n - 1):
        for x in range(n - 1):
            if m[y][x] == m[y][x + 1] == m[y + 1][x] == m[y + 1][x + 1]:
                score += 3
    dark = sum(map(sum, m))
    score += 10 * (abs(dark * 20 - n * n * 10) // (n * n))
    return score


def qr_matrix(text: str, level: str = "M") -> Matrix:
    """The modules of the QR code for `text` (True = dark), without the quiet zone."""
    if level not in LEVEL_BITS:
        raise QRError(f"level must be L or M, not {level!r}")
    data = text.encode("utf-8")
    version = choose_version(len(data), level)
    symbol = _Symbol(version)
    symbol.place(_codewords(data, version, level))
    return min((symbol.masked(mask, level) for mask in range(8)), key=penalty)


def qr_svg(text: str, level: str = "M", quiet: int = 4) -> str:
    """An inline SVG of the code (one path), scaled by its container."""
    m = qr_matrix(text, level)
    size = len(m) + 2 * quiet
    path = "".join(f"M{x + quiet},{y + quiet}h1v1h-1z"
                   for y, row in enumerate(m) for x, dark in enumerate(row) if dark)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
            f'shape-rendering="crispEdges" role="img" aria-label="QR code">'
            f'<rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path d="{path}" fill="#000"/></svg>')


def qr_text(text: str, level: str = "M", quiet: int = 2) -> str:
    """The code drawn with Unicode half blocks (two modules per character row) for a terminal."""
    m = qr_matrix(text, level)
    n = len(m) + 2 * quiet
    dark = [[False] * n for _ in range(quiet)] + [
        [False] * quiet + row + [False] * quiet for row in m
    ] + [[False] * n for _ in range(quiet + 1)]
    blocks = {(False, False): "\u2588", (True, False): "\u2584", (False, True): "\u2580",
              (True, True): " "}  # light modules are drawn, so it reads on a dark terminal
    return "\n".join("".join(blocks[top, bottom] for top, bottom in zip(dark[y], dark[y + 1],
                                                                        strict=True))
                     for y in range(0, n, 2))
