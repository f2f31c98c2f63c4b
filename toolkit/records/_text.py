"""Reading the text containers of shoe records, CSV and JSON lines: encodings, line endings, headers, bad lines.

Private to :mod:`toolkit.records._io`.  :func:`decode` turns the bytes into text
(UTF-8, with or without a byte-order mark; UTF-16 and UTF-32 by their mark or, for
UTF-16 without one, by the zero bytes of its ASCII characters; any other encoding as
`charset-normalizer <https://github.com/jawah/charset_normalizer>`_ detects it, with a
problem that names it) and ends every line with ``\\n`` (CR-only and mixed endings
included).  A line that cannot be read (invalid JSON, not an object, too many CSV
fields, an unterminated quote) is a problem of that line and of its shoe when the line
names one; every other line is read.  Header lines after the first rows begin a new
header section (:class:`~toolkit.records._raw.Section`).  CSV fields are separated by
commas, tabs or semicolons, as the line of column names tells (:func:`delimiter`).
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator, Mapping

import numpy as np
import polars as pl

from toolkit._files import size_text
from toolkit.records._raw import (
    KEY_COLUMNS,
    LineProblem,
    Raw,
    UnreadableError,
    canonical_columns,
    column,
    refuse_length,
    refuse_width,
)

__all__ = [
    "DELIMITERS",
    "MAX_LINE_BYTES",
    "decode",
    "delimiter",
    "drop_long_lines",
    "is_jsonl",
    "read_csv",
    "read_jsonl",
    "refuse_long_text",
    "refuse_wide_names",
]

_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"),
    (b"\xfe\xff", "utf-16-be", "UTF-16"),
)
#: The field separators a CSV file may use (told by :func:`delimiter`).
DELIMITERS = ",\t;"
_COLUMN_NAMES = {"shoe", "position", "card", "role", "coup", "player", "banker", "winner", "bets", "road"}


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when the zero bytes are those of ASCII text in UTF-16, else ``None``."""
    if len(data) < 2 or len(data) % 2:
        return None
    b = np.frombuffer(data, np.uint8)
    even, odd = b[0::2] == 0, b[1::2] == 0
    if odd.mean() > 0.9 and not even.any():
        return "utf-16-le"
    if even.mean() > 0.9 and not odd.any():
        return "utf-16-be"
    return None


def _ascii_compatible(encoding: str) -> bool:
    try:
        return bytes(range(128)).decode(encoding) == "".join(map(chr, range(128)))
    except (LookupError, UnicodeDecodeError):
        return False


def decode(data: bytes) -> tuple[str, LineProblem | None]:
    """The text of a record file with every line ending ``\\n``, and a problem when its encoding had to be guessed."""
    note = None
    for bom, encoding, name in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as err:
                raise UnreadableError(
                    "not_text", f"the file starts with the {name} byte-order mark but is not {name} text", None
                ) from err
            break
    else:
        if b"\x00" in data:
            utf16 = _utf16_without_bom(data)
            try:
                decoded = data.decode(utf16) if utf16 is not None else None
            except UnicodeDecodeError:  # zero bytes where UTF-16 has them, but not UTF-16
                decoded = None
            if decoded is None and data.count(b"\x00") * 100 < len(data):  # text with a few stray NUL bytes
                at = data.index(b"\x00")
                text, note = decode(data.replace(b"\x00", "\ufffd".encode()))
                note = note or LineProblem(
                    _line_of(data, at),
                    None,
                    "encoding",
                    f"the file holds NUL bytes (the first at byte {at + 1}, line {_line_of(data, at)}); "
                    "they were read as U+FFFD",
                )
                return text, note
            if decoded is None:
                raise UnreadableError(
                    "not_text",
                    "the file is not text (it holds NUL bytes): expected CSV, JSON lines or Parquet",
                    _line_of(data, data.index(b"\x00")),
                )
            text = decoded
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as err:
                text, note = _guess(data, err)
    if "\r" in text:
        text = re.sub(r"\r\n?", "\n", text)
    return text, note


def _guess(data: bytes, err: UnicodeDecodeError) -> tuple[str, LineProblem]:
    from charset_normalizer import from_bytes

    line = _line_of(data, err.start)
    where = f"byte {err.start + 1}, line {line}"
    best = from_bytes(data).best()
    encoding = best.encoding if best is not None else None
    if encoding and _ascii_compatible(encoding):
        text = data.decode(encoding, errors="replace")
        message = f"the file is not UTF-8 ({where}); it was read as {encoding}, the encoding charset-normalizer detects"
    else:
        text = data.decode("utf-8", errors="replace")
        message = f"the file is not UTF-8 ({where}) and no encoding fits; bytes that are not UTF-8 read as U+FFFD"
    return text, LineProblem(line, None, "encoding", message)


#: The most bytes a line of a text record may hold: a longer line (a 300 MB blob in a cell) is a problem of its
#: line and is not read (it stands as a comment line ``#``), so that its text is never decoded or split.
MAX_LINE_BYTES = 2**20


def drop_long_lines(data: bytes, limit: int | None = None) -> tuple[bytes, list[LineProblem]]:
    """The bytes of a text record with each line longer than ``limit`` (:data:`MAX_LINE_BYTES`) made a ``#`` line,
    and a problem for each (its line, its length); the line numbers of the others are kept.

    >>> data, problems = drop_long_lines(b"a,b\\n1,22222\\n3,4\\n", limit=4)
    >>> data, problems[0].message
    (b'a,b\\n#\\n3,4\\n', 'line 2 holds 7 bytes; a line holds at most 4 bytes: it is not read')
    """
    limit = MAX_LINE_BYTES if limit is None else limit
    wide = data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:4096]  # UTF-16 or -32: not bytes a line
    if len(data) <= limit or wide:
        return data, []
    long = _long_spans(data, limit)
    if not long:
        return data, []
    parts, problems, at, line, counted = [], [], 0, 1, 0
    for start, end in long:
        line += data.count(b"\n", counted, start)
        counted = start
        parts += [data[at:start], b"#"]
        at = end
        message = f"line {line} holds {end - start:,} bytes; a line holds at most {size_text(limit)}: it is not read"
        problems.append(LineProblem(line, None, "bad_line", message))
    parts.append(data[at:])
    return b"".join(parts), problems


def refuse_long_text(data: bytes) -> None:
    """:class:`UnreadableError` when the text ``data`` holds more lines than :data:`~toolkit.records._raw.MAX_LINES`.

    The lines are counted in the bytes, before anything is decoded: a line ends at a newline, a carriage return or
    both (CRLF), and a last line without an ending counts too (UTF-16 and UTF-32 text is counted by its newline
    bytes, which may count a few more).

    >>> refuse_long_text(b"a\\r\\nb\\rc\\nd")
    """
    endings = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    refuse_length(endings + (0 if data.endswith((b"\n", b"\r")) or not data else 1))


def _long_spans(data: bytes, limit: int, chunk: int = 2**24) -> list[tuple[int, int]]:
    """Where the lines longer than ``limit`` bytes are (start, end without the newline), found a chunk at a time."""
    array = np.frombuffer(data, np.uint8)
    spans: list[tuple[int, int]] = []
    last = -1  # the newline before the line being read
    for at in range(0, len(array), chunk):
        part = array[at : at + chunk]
        ends = np.flatnonzero((part == 10) | (part == 13)) + at  # CR-only line endings end lines too
        if not len(ends):
            continue
        starts = np.r_[last, ends[:-1]] + 1
        spans += [(int(starts[i]), int(ends[i])) for i in np.flatnonzero(ends - starts > limit)]
        last = int(ends[-1])
    if len(array) - (last + 1) > limit:
        spans.append((last + 1, len(array)))
    return spans


def refuse_wide_names(text: str) -> None:
    """:class:`UnreadableError` when the first line of a CSV text (its column names, or its first row) has more
    fields than :data:`~toolkit.records._raw.MAX_COLUMNS`, by any separator: checked before anything else is read.

    JSON lines are not counted here (their keys are, as they are read).
    """
    for number, line in enumerate(text.split("\n", 1000)[:1000], start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if not line.lstrip().startswith(("{", "[")):
            refuse_width(max(line.count(d) for d in DELIMITERS) + 1, number, f"line {number} has")
        return


def is_jsonl(text: str) -> bool:
    """Whether most of the first lines (not comments, not blank) are JSON objects."""
    first = [ln.strip() for ln in text.split("\n", 400)[:400] if ln.strip() and not ln.startswith("#")]
    objects = sum(ln.startswith(("{", "[")) for ln in first)
    return bool(first) and objects * 2 > len(first)


def _header_words(text: str) -> dict[str, str] | None:
    """``key=value`` words of a comment line, or ``None`` when it is free text."""
    words = text.lstrip("#").split()
    if not words or not all("=" in w for w in words):
        return None
    out: dict[str, str] = {}
    for key, value in (w.split("=", 1) for w in words):
        if key in out and out[key] != value:
            out[key] = _Clash(out[key], value)
        else:
            out[key] = value
    return out


class _Clash(str):
    """Two values for one key on one header line (``# decks=8 decks=6``)."""

    first: str

    def __new__(cls, first: str, second: str) -> _Clash:
        self = super().__new__(cls, second)
        self.first = first
        return self


def _add_header_line(raw: Raw, words: Mapping[str, object], line: int, started: bool, continues: bool) -> None:
    """One header line: the file's header, a shoe's keys, or (after the first rows) a new or continued section."""
    for key, value in words.items():
        if isinstance(value, _Clash):
            message = f"shoe header: key {key} is given twice, as {value.first!r} and {str(value)!r}: say it once"
            if "shoe" in words:
                raw.problems.append(LineProblem(line, str(words["shoe"]), "bad_header", message))
            elif not started:
                raise UnreadableError("bad_header", message, line)
            else:
                raw.add_meta({}, line, started=True)
                raw.sections[-1].error = message
                return
    if started and continues and "shoe" not in words and raw.sections:
        raw.extend_section(words, line)
    else:
        raw.add_meta(words, line, started=started)


def _comment_lines(raw: Raw, comments: list[tuple[int, str]], first_row: int | None) -> None:
    previous = -1
    for number, text in comments:
        words = _header_words(text.strip())
        if words:
            started = first_row is not None and number > first_row
            _add_header_line(raw, words, number, started, continues=number == previous + 1)
        previous = number


def read_csv(text: str, data: bytes) -> Raw:
    """Read CSV text (``data``: the same as UTF-8 bytes); fast with polars, line by line when that cannot be trusted.

    The lines are found in ``data`` as offsets (no Python string a line): a line's text is made only when it is
    looked at (the column names, the comment lines, the first row).
    """
    lines = _Lines(data)
    comment = lines.starting_with(b"#")
    rows = np.flatnonzero(~comment)
    if len(rows) == 0 or not lines[rows[0]].strip():
        raise UnreadableError("empty_file", "the file holds no column names and no rows")
    separator = delimiter(lines[rows[0]])
    try:
        frame = pl.read_csv(
            io.BytesIO(data), separator=separator, comment_prefix="#", infer_schema=False, raise_if_empty=False
        )
    except BaseException as err:  # polars raises (or panics) on a row with too many fields: read line by line
        if isinstance(err, (KeyboardInterrupt, SystemExit, GeneratorExit)):
            raise
        frame = None
    numbers = rows[1:] + 1
    if frame is not None and len(numbers) == frame.height and not _names_again(frame):
        raw = Raw()
        comments = [(int(i) + 1, lines[i]) for i in np.flatnonzero(comment)]
        first_row = next((int(n) for n in numbers if lines[n - 1].strip()), None)
        _comment_lines(raw, comments, first_row - 1 if first_row is not None else None)
        lines_col = pl.Series("line", numbers, dtype=pl.Int64)
        raw.frame = canonical_columns(frame).with_columns(lines_col)
        return _other_separators(raw, separator)
    every = text.split("\n")
    if every and every[-1] == "":
        every.pop()
    return _other_separators(_read_csv_by_line(every, separator), separator)


class _Lines:
    """The lines of UTF-8 text (``str.split("\\n")`` less a last empty one), told by their offsets in the bytes."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        ends = np.flatnonzero(np.frombuffer(data, np.uint8) == ord("\n"))
        self.starts = np.r_[0, ends + 1]
        self.ends = np.r_[ends, len(data)]
        if self.starts[-1] == len(data):  # the text ends with a newline (or is empty): no line after it
            self.starts, self.ends = self.starts[:-1], self.ends[:-1]

    def __len__(self) -> int:
        return len(self.starts)

    def __getitem__(self, i: int | np.integer) -> str:
        return self.data[self.starts[i] : self.ends[i]].decode("utf-8")

    def starting_with(self, prefix: bytes) -> np.ndarray:
        """A boolean array: which lines begin with the byte ``prefix``."""
        if not len(self):
            return np.zeros(0, bool)
        return np.frombuffer(self.data, np.uint8)[self.starts] == prefix[0]


def _other_separators(raw: Raw, separator: str) -> Raw:
    """``raw`` without the rows written with another separator than the column names' (``1;6;2c;banker`` in a
    comma-separated file: one field, every other cell empty); each is a problem of its line and of the shoe its
    first field names.  Read as they are, they would be rows of a phantom shoe ``1;6;2c;banker``."""
    columns = [c for c in raw.frame.columns if c != "line"]
    if len(columns) < 2:
        return raw
    others = [d for d in DELIMITERS if d != separator]
    first = pl.col(columns[0]).cast(pl.String)
    alone = pl.all_horizontal(pl.col(c).is_null() for c in columns[1:])
    pattern = "[" + "".join(re.escape(d) for d in others) + "]"
    foreign = alone & first.str.contains(pattern)
    bad = raw.frame.filter(foreign)
    if bad.is_empty():
        return raw
    shoe_first = columns[0].strip().lower() == "shoe"
    for line, text in bad.select("line", columns[0]).iter_rows():
        used = next(d for d in others if d in text)
        fields = text.split(used)
        raw.problems.append(
            LineProblem(
                int(line),
                fields[0].strip() if shoe_first else None,
                "bad_line",
                f"line {line} is separated by {used!r} ({len(fields)} fields) but the column names by "
                f"{separator!r}: it is not read",
            )
        )
    return raw.with_frame(raw.frame.filter(~foreign))


def delimiter(names: str) -> str:
    """The field separator of a CSV file, told by its line of column names: ``,`` (the default), tab or ``;``.

    :class:`csv.Sniffer` chooses among the three; a line it cannot tell (one column) is comma-separated.

    >>> delimiter("shoe,position,card"), delimiter("shoe\\tposition\\tcard"), delimiter("shoe;road"), delimiter("shoe")
    (',', '\\t', ';', ',')
    """
    try:
        return csv.Sniffer().sniff(names, delimiters=DELIMITERS).delimiter
    except csv.Error:
        return ","


def _names_again(frame: pl.DataFrame) -> bool:
    """Whether a row repeats the column names (two CSV files joined with ``cat``)."""
    if not frame.width:
        return False
    first = frame.columns[0]
    values = frame[first].str.strip_chars().str.to_lowercase()
    return bool((values == first.strip().lower()).any())


def _fields(line: str, separator: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=separator), [])
    except csv.Error:
        return line.split(separator)


def _read_csv_by_line(lines: list[str], separator: str = ",") -> Raw:
    """The standard library's CSV reader, one record at a time: every record's first line, bad lines skipped."""
    raw = Raw()
    comments: list[tuple[int, str]] = []
    records: list[tuple[int, list[str]]] = []
    bad: list[tuple[int, list[str], str | None, str]] = []  # line, its fields, its shoe (if known), message
    n, i = len(lines), 0
    while i < n:
        pos, start, at_start = [i], [0], [True]

        def feed(pos: list[int] = pos, start: list[int] = start, at_start: list[bool] = at_start):
            while pos[0] < n:
                line = lines[pos[0]]
                pos[0] += 1
                if at_start[0]:
                    if line.startswith("#"):
                        comments.append((pos[0], line))
                        continue
                    start[0], at_start[0] = pos[0], False
                yield line + "\n"

        reader = csv.reader(feed(), delimiter=separator, strict=True)
        try:
            for row in reader:
                at_start[0] = True
                if row:
                    records.append((start[0], row))
            break
        except csv.Error as err:
            bad.append((start[0], _fields(lines[start[0] - 1], separator), None, f"line {start[0]} is not CSV: {err}"))
            i = start[0]
    if not records:
        raise UnreadableError("empty_file", "the file holds no column names and no rows")
    names_line, names = records[0]
    names = _unique(names)
    index = {_norm(c): k for k, c in enumerate(names)}
    shoe_at = index.get("shoe")
    width = len(names)
    columns: list[list[str | None]] = [[] for _ in names]
    numbers: list[int] = []
    mapping = list(range(width))
    first_row = None
    for number, row in records[1:]:
        normed = [_norm(c) for c in row]
        if "shoe" in normed and set(normed) <= _COLUMN_NAMES | set(index):
            if set(normed) == set(index) and len(normed) == len(index):  # the same names again (files joined)
                mapping = [index[c] for c in normed]
                width = len(row)
            else:
                raw.problems.append(
                    LineProblem(
                        number,
                        None,
                        "bad_line",
                        f"line {number} holds other column names ({', '.join(row)}) than line {names_line} "
                        f"({', '.join(names)}); it is skipped and the rows after it are read by the names of "
                        f"line {names_line}",
                    )
                )
            continue
        if len(row) > width:
            shoe = row[mapping.index(shoe_at)] if shoe_at in mapping else None
            bad.append((number, [], shoe, f"line {number} has {len(row)} fields; the column names give {width}"))
            continue
        first_row = number if first_row is None else first_row
        values: list[str | None] = [None] * len(names)
        for k, value in enumerate(row):
            if mapping[k] >= 0 and value != "":
                values[mapping[k]] = value
        for k, cell in enumerate(values):
            columns[k].append(cell)
        numbers.append(number)
    for number, fields, named, message in bad:
        shoe = fields[shoe_at] if named is None and shoe_at is not None and len(fields) > shoe_at else named
        raw.problems.append(LineProblem(number, shoe.strip() if shoe else None, "bad_line", message))
    _comment_lines(raw, sorted(comments), first_row)
    frame = pl.DataFrame([pl.Series(name, v, dtype=pl.String) for name, v in zip(names, columns, strict=True)])
    raw.frame = canonical_columns(frame).with_columns(pl.Series("line", numbers, dtype=pl.Int64))
    return raw


def _norm(name: str) -> str:
    return name.strip().lower()


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if name in seen:
            out.append(f"{name}_duplicated_{seen[name]}")
            seen[name] += 1
        else:
            seen[name] = 0
            out.append(name)
    return out


class _DuplicateKeyError(ValueError):
    pass


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out and out[key] != value:
            raise _DuplicateKeyError(f"key {key!r} is given twice, as {json.dumps(out[key])} and {json.dumps(value)}")
        out[key] = value
    return out


_SHOE_IN_LINE = re.compile(r'"shoe"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|(-?\d+))')


def _split_lines(text: str) -> Iterator[str]:
    """``text.split("\\n")``, a line at a time (the lines are never all held at once)."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


def read_jsonl(text: str) -> Raw:
    """Read JSON lines: one object a line; ``{"meta": {...}}`` lines hold header keys."""
    raw = Raw()
    # each row's values go straight into their columns (a dict a row, or a list of every line, would hold about
    # 1.5 KB a line at once); a column is filled out with nulls up to the row it first appears in
    columns: dict[str, list] = {}
    first_line: dict[str, int] = {}  # every key, and the line that gave it first: bounded as the rows are read
    lines: list[int] = []
    rows = 0
    last_meta = -1
    for number, line in enumerate(_split_lines(text), start=1):
        if not line.strip() or line == "#":  # "#": a line too long to read, a problem already (drop_long_lines)
            continue
        problem = None
        try:
            obj = json.loads(line, object_pairs_hook=_pairs)
        except _DuplicateKeyError as err:
            problem = f"line {number}: {err}: say it once"
        except (json.JSONDecodeError, RecursionError) as err:
            problem = f"line {number} is not valid JSON: {getattr(err, 'msg', 'nested too deeply')}"
        else:
            if not isinstance(obj, dict):
                problem = f"line {number} holds a JSON {type(obj).__name__}, not an object"
            else:
                nested = [k for k in KEY_COLUMNS if isinstance(obj.get(k), (list, dict))]
                if nested and "meta" not in obj:
                    kind = type(obj[nested[0]]).__name__
                    problem = f"line {number}: {nested[0]!r} holds a JSON {kind}: one value expected"
        if problem is not None:
            found = _SHOE_IN_LINE.search(line)
            shoe = (found.group(1) if found.group(1) is not None else found.group(2)) if found else None
            code = "bad_header" if '"meta"' in line and not rows else "bad_line"
            if code == "bad_header":
                raise UnreadableError(code, problem, number)
            raw.problems.append(LineProblem(number, shoe, code, problem))
            continue
        if "meta" in obj:
            if not isinstance(obj["meta"], dict):
                message = f'line {number}: "meta" must be an object of header keys'
                if not rows:
                    raise UnreadableError("bad_header", message, number)
                raw.add_meta({}, number, started=True)
                raw.sections[-1].error = message
                continue
            _add_header_line(raw, obj["meta"], number, bool(rows), continues=last_meta == number - 1)
            last_meta = number
            continue
        for key, value in obj.items():
            values = columns.get(key)
            if values is None:
                first_line[key] = number
                refuse_width(len(first_line), number, f"line {number} brings the keys to")
                values = columns[key] = []
            if len(values) < rows:
                values.extend([None] * (rows - len(values)))
            values.append(value)
        rows += 1
        lines.append(number)
    if not rows:
        raise UnreadableError("empty_file", "the file holds no records")
    for values in columns.values():
        values.extend([None] * (rows - len(values)))
    frame = pl.DataFrame([column(k, v) for k, v in columns.items()])
    raw.frame = frame.with_columns(pl.Series("line", lines, dtype=pl.Int64))
    return raw
