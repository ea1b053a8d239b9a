#!/usr/bin/env python3
"""Renders a picture description (docs/picture/architecture.txt) as SVG.

    python3 docs/picture/render.py DESCRIPTION SVG          # writes SVG
    python3 docs/picture/render.py --check DESCRIPTION SVG  # fails unless SVG is DESCRIPTION's rendering

`make picture` writes docs/architecture.svg; `make test-lint` runs the
check. Python 3.8+, standard library only; the output depends on the
description alone (no date, no version, fixed number formatting), so the
same description always gives the same bytes.

The description is one item a line (# starts a comment; words are split
as a shell splits them, so a text with spaces is quoted):

    canvas WIDTH HEIGHT
    frame ID X Y W H "title"                    a dashed group, title at its top left
    box ID X Y W H "title" ["line"]... [fill=rrggbb]
    arrow FROM TO ["label"] [both]              FROM's edge to TO's, head at TO;
                                                both: a pair, one each way
    text X Y "text" [anchor=start|middle|end]

A box's lines under its title are smaller; a whole line written
`like this` (in backticks) is set in a monospace font. Every text must fit its box:
a text estimated wider than the box is an error, not a clipped picture.
"""

import shlex
import sys
from typing import Dict, List, Tuple

FONT = "-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"
MONO = "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace"
TITLE_SIZE, LINE_SIZE, LABEL_SIZE = 14, 12, 11
# Average advance of a character, as a fraction of the font size: generous,
# so that a text that passes the check fits in any common font.
ADVANCE = {"sans": 0.58, "bold": 0.62, "mono": 0.62}
INK, MUTED, STROKE, BOX_FILL = "#1f2328", "#57606a", "#57606a", "#f6f8fa"


class Error(Exception):
    pass


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def width_of(text: str, size: int, face: str) -> float:
    return len(text) * size * ADVANCE[face]


class Rect:
    def __init__(self, x: int, y: int, w: int, h: int) -> None:
        self.x, self.y, self.w, self.h = x, y, w, h

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h


def ints(words: List[str], where: str) -> List[int]:
    try:
        return [int(word) for word in words]
    except ValueError:
        raise Error(f"{where}: expected numbers, got {' '.join(words)}") from None


def split_options(words: List[str]) -> Tuple[List[str], Dict[str, str]]:
    plain, options = [], {}
    for word in words:
        key, eq, value = word.partition("=")
        if eq and key.isidentifier():
            options[key] = value
        else:
            plain.append(word)
    return plain, options


def render(description: str, name: str = "description") -> str:
    canvas = None
    rects: Dict[str, Rect] = {}
    out: List[str] = []
    arrows: List[str] = []

    for number, raw in enumerate(description.splitlines(), 1):
        where = f"{name}:{number}"
        words = shlex.split(raw, comments=True)
        if not words:
            continue
        kind, args = words[0], words[1:]
        args, options = split_options(args)
        if kind == "canvas":
            canvas = ints(args, where)
            if len(canvas) != 2:
                raise Error(f"{where}: canvas WIDTH HEIGHT")
        elif kind in ("frame", "box"):
            if len(args) < 6:
                raise Error(f"{where}: {kind} ID X Y W H \"title\" ...")
            ident, (x, y, w, h), texts = args[0], ints(args[1:5], where), args[5:]
            if ident in rects:
                raise Error(f"{where}: {ident} is defined twice")
            rect = rects[ident] = Rect(x, y, w, h)
            if canvas is None or rect.right > canvas[0] or rect.bottom > canvas[1] or x < 0 or y < 0:
                raise Error(f"{where}: {ident} is not inside the canvas")
            out.extend(frame(rect, texts[0], where) if kind == "frame" else box(rect, texts, options, where))
        elif kind == "arrow":
            if len(args) < 2 or args[0] not in rects or args[1] not in rects:
                raise Error(f"{where}: arrow FROM TO, both defined above")
            both = "both" in args[2:]
            labels = [a for a in args[2:] if a != "both"]
            arrows.extend(arrow(rects[args[0]], rects[args[1]], labels[0] if labels else "", both, where))
        elif kind == "text":
            if len(args) != 3:
                raise Error(f"{where}: text X Y \"text\"")
            x, y = ints(args[:2], where)
            anchor = options.get("anchor", "start")
            out.append(
                f'<text x="{x}" y="{y}" font-size="{LINE_SIZE}" fill="{MUTED}" text-anchor="{anchor}">{esc(args[2])}</text>'
            )
        else:
            raise Error(f"{where}: unknown item {kind}")

    if canvas is None:
        raise Error(f"{name}: no canvas")
    width, height = canvas
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' font-family="{esc(FONT)}" role="img">',
        f"<!-- Rendered by docs/picture/render.py from {esc(name)}; run make picture, do not edit. -->",
        "<defs>",
        f'<marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{STROKE}"/></marker>',
        "</defs>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    return "\n".join(head + out + arrows + ["</svg>"]) + "\n"


def frame(rect: Rect, title: str, where: str) -> List[str]:
    if width_of(title, LINE_SIZE, "bold") > rect.w - 20:
        raise Error(f"{where}: the title {title!r} is wider than its frame")
    return [
        f'<rect x="{rect.x}" y="{rect.y}" width="{rect.w}" height="{rect.h}" rx="10" fill="#fbfcfd" stroke="{STROKE}"'
        ' stroke-dasharray="6 4"/>',
        f'<text x="{rect.x + 12}" y="{rect.y + 18}" font-size="{LINE_SIZE}" font-weight="bold" fill="{MUTED}">{esc(title)}</text>',
    ]


def box(rect: Rect, texts: List[str], options: Dict[str, str], where: str) -> List[str]:
    fill = options.get("fill")
    if fill is None:
        fill = BOX_FILL
    elif len(fill) == 6 and all(c in "0123456789abcdefABCDEF" for c in fill):
        fill = "#" + fill.lower()
    else:
        raise Error(f"{where}: fill=RRGGBB (six hex digits, no #), not {fill}")
    lines = [
        f'<rect x="{rect.x}" y="{rect.y}" width="{rect.w}" height="{rect.h}" rx="6" fill="{esc(fill)}" stroke="{STROKE}"/>'
    ]
    sizes = [TITLE_SIZE] + [LINE_SIZE] * (len(texts) - 1)
    gap = 4
    total = sum(sizes) + gap * (len(texts) - 1)
    if total > rect.h - 8:
        raise Error(f"{where}: {len(texts)} lines do not fit a box {rect.h} high")
    y = rect.y + (rect.h - total) / 2
    cx = rect.x + rect.w // 2
    for index, (text, size) in enumerate(zip(texts, sizes)):
        y += size
        mono = len(text) > 1 and text.startswith("`") and text.endswith("`")
        if mono:
            text = text[1:-1]
        face = "mono" if mono else ("bold" if index == 0 else "sans")
        if width_of(text, size, face) > rect.w - 12:
            raise Error(f"{where}: {text!r} is wider than its box ({rect.w})")
        attrs = f'font-size="{size}"'
        if index == 0:
            attrs += ' font-weight="bold"'
        if mono:
            attrs += f' font-family="{esc(MONO)}"'
        colour = INK if index == 0 else MUTED
        lines.append(f'<text x="{cx}" y="{y:.0f}" {attrs} fill="{colour}" text-anchor="middle">{esc(text)}</text>')
        y += gap
    return lines


def arrow(a: Rect, b: Rect, label: str, both: bool, where: str) -> List[str]:
    """A straight arrow between the facing edges of a and b: in the middle of
    their overlap when they overlap across the arrow, else between centres."""

    def middle(lo1: int, hi1: int, lo2: int, hi2: int) -> int:
        lo, hi = max(lo1, lo2), min(hi1, hi2)
        return (lo + hi) // 2 if lo < hi else (lo1 + hi1 + lo2 + hi2) // 4

    if b.y >= a.bottom or a.y >= b.bottom:  # one above the other
        x = middle(a.x, a.right, b.x, b.right)
        y1, y2 = (a.bottom, b.y) if b.y >= a.bottom else (a.y, b.bottom)
        ends = [((x, y1), (x, y2))] if not both else [((x - 6, y1), (x - 6, y2)), ((x + 6, y2), (x + 6, y1))]
        label_at, anchor = (x + (14 if both else 8), (y1 + y2) // 2 + 4), "start"
    elif b.x >= a.right or a.x >= b.right:  # side by side
        y = middle(a.y, a.bottom, b.y, b.bottom)
        x1, x2 = (a.right, b.x) if b.x >= a.right else (a.x, b.right)
        ends = [((x1, y), (x2, y))] if not both else [((x1, y - 6), (x2, y - 6)), ((x2, y + 6), (x1, y + 6))]
        label_at, anchor = ((x1 + x2) // 2, y - (14 if both else 8)), "middle"
    else:
        raise Error(f"{where}: an arrow between boxes that overlap")
    lines = [
        f'<line x1="{p[0]}" y1="{p[1]}" x2="{q[0]}" y2="{q[1]}" stroke="{STROKE}" stroke-width="1.5" marker-end="url(#head)"/>'
        for p, q in ends
    ]
    if label:
        lines.append(
            f'<text x="{label_at[0]}" y="{label_at[1]}" font-size="{LABEL_SIZE}" fill="{MUTED}"'
            f' text-anchor="{anchor}">{esc(label)}</text>'
        )
    return lines


def main(argv: List[str]) -> int:
    check = argv[:1] == ["--check"]
    if check:
        argv = argv[1:]
    if len(argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    source, target = argv
    with open(source, encoding="utf-8") as f:
        try:
            svg = render(f.read(), source)
        except Error as error:
            print(f"render.py: {error}", file=sys.stderr)
            return 1
    if check:
        try:
            with open(target, encoding="utf-8") as f:
                same = f.read() == svg
        except FileNotFoundError:
            same = False
        if not same:
            print(f"{target} is not the rendering of {source}: run make picture (and commit {target})", file=sys.stderr)
            return 1
        return 0
    with open(target, "w", encoding="utf-8", newline="\n") as f:
        f.write(svg)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
