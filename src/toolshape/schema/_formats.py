"""S16.7: the `format` checks the official TypeScript MCP client makes on `structuredContent`.

That client validates a result with Ajv and ajv-formats 3.x in its default full mode
(`fullFormats`); an answer one of those definitions refuses makes it refuse the whole call. An
`"exact"` output schema asserts the same definitions (`AJV_FORMATS`), so toolshape never
structures an answer that client would refuse. No other format is asserted.

The patterns are ajv-formats' own text (MIT License, Copyright (c) 2020 Evgeny Poberezkin),
read into Python's syntax by `_python`; the functions follow its `date`, `time`, `date-time`,
`uri`, `byte` and number checks. One check is conservative: `regex` (ajv-formats compiles the
text with JavaScript's `RegExp`) refuses what Python can't compile or reads differently.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping

from jsonschema import FormatChecker

from toolshape.schema._regex import compiles, searcher

#: ECMAScript's `\s` (WhiteSpace and LineTerminator), as the inside of a character class.
_JS_SPACE = (
    "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)

#: ajv-formats' patterns as written there, each with its flags.
_AJV: Mapping[str, tuple[str, str]] = {
    "duration": (r"^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$", ""),
    "uri-reference": (
        r"^(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?"
        r"(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::"
        r"(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}"
        r"|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:)"
        r"{0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)"
        r"(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]"
        r"\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]"
        r"{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25"
        r"[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'\""
        r"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})*)*"
        r"|\/(?:(?:[a-z0-9\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'\"()*+,;=:"
        r"@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'\"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-."
        r"_~!$&'\"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'\"()*+,;=:@/?]|%[0-9a-f]"
        r"{2})*)?(?:#(?:[a-z0-9\-._~!$&'\"()*+,;=:@/?]|%[0-9a-f]{2})*)?$",
        "i",
    ),
    "uri-template": (
        r"^(?:(?:[^\x00-\x20\"'<>%\\^`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]"
        r"{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*"
        r"\})*$",
        "i",
    ),
    "url": (
        r"^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|"
        r"192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1"
        r"\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2"
        r"[0-4]\d|25[0-4]))|(?:(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)(?:\."
        r"(?:[a-z0-9\u{00a1}-\u{ffff}]+-)*[a-z0-9\u{00a1}-\u{ffff}]+)*(?:\.(?:[a-z\u{00a1}-"
        r"\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?$",
        "iu",
    ),
    "email": (
        r"^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]"
        r"*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$",
        "i",
    ),
    "hostname": (
        r"^(?=.{1,253}\.?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}"
        r"[0-9a-z])?)*\.?$",
        "i",
    ),
    "ipv4": (
        r"^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$",
        "",
    ),
    "ipv6": (
        r"^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|"
        r"2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:)"
        r"{5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d"
        r"\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:"
        r"((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9"
        r"a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|"
        r"[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]"
        r"{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]"
        r"\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]"
        r"{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))"
        r"|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?"
        r"\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$",
        "i",
    ),
    "uuid": (r"^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$", "i"),
    "json-pointer": (r"^(?:\/(?:[^~/]|~0|~1)*)*$", ""),
    "json-pointer-uri-fragment": (
        r"^#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*$",
        "i",
    ),
    "relative-json-pointer": (r"^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$", ""),
    # Used by the functions below.
    "uri": (
        r"^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\["
        r"(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]"
        r"{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a"
        r"-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]"
        r"{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:"
        r"[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|"
        r"(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}"
        r"[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|"
        r"[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]"
        r"{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~"
        r"!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:"
        r"[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]"
        r"{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*"
        r"+,;=:@/?]|%[0-9a-f]{2})*)?$",
        "i",
    ),
    "date": (r"^(\d\d\d\d)-(\d\d)-(\d\d)$", ""),
    "time": (r"^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$", "i"),
    "byte": (r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$", ""),
    "regex-z-anchor": (r"[^\\]\\Z", ""),
}

_ESCAPES = {
    "d": ("[0-9]", "0-9"),
    "s": (f"[{_JS_SPACE}]", _JS_SPACE),
    "S": (f"[^{_JS_SPACE}]", None),
    "/": ("/", "/"),
}
_U_ESCAPE = re.compile(r"u\{([0-9a-fA-F]+)\}")


def _python(pattern: str, flags: str) -> str:
    """`pattern`, a JavaScript regular expression with `flags`, in Python's syntax for the
    text `_folded` gives: `$` (outside a class) is `\\Z`, `\\d` `[0-9]`, `\\s` and `\\S`
    spelled out, `\\u{...}` the character, `\\/` a `/`; with `i`, letters lower-cased."""
    out, at, in_class = [], 0, False
    while at < len(pattern):
        char = pattern[at]
        at += 1
        if char == "\\":
            code = _U_ESCAPE.match(pattern, at) if "u" in flags else None
            if code is not None:
                out.append(re.escape(chr(int(code.group(1), 16))))
                at = code.end()
                continue
            escaped = pattern[at]
            at += 1
            spelled = _ESCAPES.get(escaped)
            if spelled is None:
                out.append("\\" + escaped)
                continue
            inside = spelled[1]
            assert inside is not None or not in_class, "a negated escape inside a class"
            out.append(inside if in_class and inside is not None else spelled[0])
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif char == "$" and not in_class:
            out.append(r"\Z")
            continue
        out.append(char.lower() if "i" in flags else char)
    return "".join(out)


def _folded(text: str, flags: str) -> str:
    """`text` as a case-insensitive pattern of `_python` reads it: ASCII letters lower-cased
    (without the `u` flag JavaScript maps no other character to an ASCII letter); with `u`,
    also the two characters Unicode case folding maps into ASCII (U+017F → `s`, U+212A → `k`)."""
    if "i" not in flags:
        return text
    lowered = text.translate(_ASCII_LOWER)
    return lowered.translate(_FOLD_TO_ASCII) if "u" in flags else lowered


_ASCII_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}
_FOLD_TO_ASCII = {0x017F: "s", 0x212A: "k"}


def _matcher(name: str) -> Callable[[str], bool]:
    """Whether a text holds a match of `_AJV[name]` (compiled when first asked: importing
    toolshape compiles none of these)."""
    pattern, flags = _AJV[name]
    search = functools.cache(lambda: searcher(_python(pattern, flags)))
    return lambda text: search()(_folded(text, flags))


def _groups(name: str) -> Callable[[str], tuple[str | None, ...] | None]:
    """The groups of a whole match of `_AJV[name]`, or None (compiled when first asked)."""
    pattern, flags = _AJV[name]
    compiled = functools.cache(lambda: re.compile(_python(pattern, flags)))

    def groups(text: str) -> tuple[str | None, ...] | None:
        match = compiled().match(_folded(text, flags))
        return None if match is None else match.groups()

    return groups


_DATE = _groups("date")
_TIME = _groups("time")
_URI = _matcher("uri")
_BYTE_LINE = _matcher("byte")
_Z_ANCHOR = _matcher("regex-z-anchor")
_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_JS_LINES = re.compile("[\n\r\u2028\u2029]")
_DATE_TIME_SEPARATOR = re.compile(f"[tT{_JS_SPACE}]")
#: Python's group syntax JavaScript lacks (named `(?P`, comments, atomic, conditional, inline
#: flags), possessive repeats, and the empty classes JavaScript reads differently.
_PYTHON_ONLY = re.compile(r"\(\?(?:P|#|>|\(|[aiLmsux-]+[:)])|(?:[*+?}])\+|\[\^?\]")


def _date(text: str) -> bool:
    parts = _DATE(text)
    if parts is None:
        return False
    year, month, day = (int(str(part)) for part in parts)
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= month <= 12 and 1 <= day <= (29 if month == 2 and leap else _DAYS[month])


def _time(strict_zone: bool) -> Callable[[str], bool]:
    def time(text: str) -> bool:
        parts = _TIME(text)
        if parts is None:
            return False
        hour, minute, second = int(str(parts[0])), int(str(parts[1])), float(str(parts[2]))
        zone, sign = parts[3], -1 if parts[4] == "-" else 1
        zone_hour, zone_minute = int(parts[5] or 0), int(parts[6] or 0)
        if zone_hour > 23 or zone_minute > 59 or (strict_zone and not zone):
            return False
        if hour <= 23 and minute <= 59 and second < 60:
            return True
        utc_minute = minute - zone_minute * sign  # a leap second: 23:59:60 in UTC
        utc_hour = hour - zone_hour * sign - (1 if utc_minute < 0 else 0)
        return utc_hour in (23, -1) and utc_minute in (59, -1) and second < 61

    return time


def _date_time(strict_zone: bool) -> Callable[[str], bool]:
    time = _time(strict_zone)

    def date_time(text: str) -> bool:
        parts = _DATE_TIME_SEPARATOR.split(text)
        return len(parts) == 2 and _date(parts[0]) and time(parts[1])

    return date_time


def _uri(text: str) -> bool:
    return ("/" in text or ":" in text) and _URI(text)


def _byte(text: str) -> bool:
    """ajv-formats' `byte` (a `gm` pattern): some line of the text is base64."""
    return any(_BYTE_LINE(line) for line in _JS_LINES.split(text))


def _regex(text: str) -> bool:
    """ajv-formats' `regex`, conservatively: no `\\Z` after a character, and a pattern Python
    compiles without syntax JavaScript reads otherwise."""
    return not _Z_ANCHOR(text) and not _PYTHON_ONLY.search(text) and compiles(text)


def _number(check: Callable[[float | int], bool]) -> Callable[[object], bool]:
    """A number format: `check` on numbers (JSON numbers, never booleans), true otherwise."""

    def number(value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return True
        return check(value)

    return number


def _integer(value: float | int) -> bool:
    """JavaScript's `Number.isInteger` of a JSON number."""
    return isinstance(value, int) or value.is_integer()


def _int32(value: float | int) -> bool:
    return _integer(value) and -(2**31) <= value <= 2**31 - 1


def _string(check: Callable[[str], bool]) -> Callable[[object], bool]:
    """A string format: `check` on strings, true for any other value (as in Ajv)."""
    return lambda value: not isinstance(value, str) or check(value)


def _checker() -> FormatChecker:
    """The jsonschema format checker of ajv-formats' full mode."""
    strings: dict[str, Callable[[str], bool]] = {
        "date": _date,
        "time": _time(True),
        "date-time": _date_time(True),
        "iso-time": _time(False),
        "iso-date-time": _date_time(False),
        "uri": _uri,
        "regex": _regex,
        "byte": _byte,
        **{name: _matcher(name) for name in _PATTERN_FORMATS},
    }
    checker = FormatChecker(formats=())
    for name, check in strings.items():
        checker.checks(name)(_string(check))
    checker.checks("int32")(_number(_int32))
    checker.checks("int64")(_number(_integer))
    return checker


#: The formats ajv-formats defines by one pattern.
_PATTERN_FORMATS = (
    "duration",
    "uri-reference",
    "uri-template",
    "url",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
    "json-pointer",
    "json-pointer-uri-fragment",
    "relative-json-pointer",
)
#: S16.7: the format checks of an `"exact"` output schema (`float`, `double`, `password` and
#: `binary` accept every value, as they do in ajv-formats).
AJV_FORMATS = _checker()
