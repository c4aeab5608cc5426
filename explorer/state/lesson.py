"""A lesson: an ordered list of steps, each a view of the app, a note and maybe a question.

Pure Python, no streamlit. A step's view is what a link holds (its query parameters, read
by `urlstate.params_to_state` as a link is) plus its page. A lesson travels as a small JSON
file (download, upload) and inside a link (`to_link`: the same JSON, deflated and
base64url-encoded); `parse_lesson` and `from_link` read both and check them like any
input a stranger could send: a size limit, only the fields declared here, texts of bounded
length, every step's view a valid one. They raise nothing but `LessonError`, whose `key`
and `values` name the problem for a page to say in the learner's language (never repeating
the file's text).

A question is one of `QuestionKind`:
- "attention": which key the step's query (a token position) attends to most, in the kind,
  layer and head of the step's view; the answer is read from the live model when the step
  is shown, never stored;
- "next": which token the decoder, having read the step's target up to position `query`
  (teacher forcing, as in training), gives the highest probability; read from the live
  model the same way;
- "choice": the teacher's own options, one of them right (`answer`);
- "poll": the teacher's options, none right.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, get_args

from ..text.i18n import LANGS
from .urlstate import EXTRAS, URL_KEYS, params_to_state
from .view import PAGE_PATHS

FORMAT = "transformer-explorer-lesson"  # a lesson file's "format" field
VERSION = 1  # the format's version this app reads and writes
MAX_BYTES = 64_000  # a lesson file (or a link's lesson, once inflated) at most this long
MAX_LINK_CHARS = 40_000  # a link's encoded lesson at most this long
MAX_STEPS = 30
MAX_TITLE = 80  # characters of a title, per language
MAX_NOTE = 1200  # characters of a step's note, per language
MAX_PROMPT = 300  # characters of a question, per language
MAX_OPTION = 100  # characters of an option, per language
OPTIONS_RANGE = (2, 6)  # how many options a choice or a poll has
MAX_QUERY = 199  # an attention question's query position, at most
LINK_PREFIX = "1."  # an encoded lesson in a link: the format's version, then the data

QuestionKind = Literal["attention", "next", "choice", "poll"]
QUESTION_KINDS: tuple[str, ...] = get_args(QuestionKind)
# The kinds whose options and answer the live model gives when the step is shown: a file
# holds their `query` (a position), never options or an answer.
MEASURED: frozenset[str] = frozenset({"attention", "next"})

# A step's view: the link keys a view has (the sidebar's settings, every page's choices);
# never each learner's own (language, presenter mode), a class, or the lesson itself.
VIEW_KEYS: frozenset[str] = frozenset({*URL_KEYS.values(), *EXTRAS, "preset"}) - {"lang", "pres"}

SHIPPED_DIR = Path(__file__).resolve().parents[2] / "lessons"
# The lessons the app ships (lessons/<name>.json), in the order the lesson menu lists them
SHIPPED: tuple[str, ...] = ("attention_step_by_step", "masks_and_shapes")

Text = Mapping[str, str]  # a text in each language it is written in: {"en": ..., "zh": ...}


class LessonError(ValueError):
    """A lesson that cannot be read: `key` (an interface text key) and its `values`."""

    def __init__(self, key: str, /, **values: object) -> None:
        super().__init__(key)
        self.key, self.values = key, values


@dataclass(frozen=True)
class Question:
    """A step's question (`QuestionKind`). `prompt` may be empty for a MEASURED kind (the
    app asks in its own words); `options` are the teacher's, for "choice" and "poll";
    `answer` is the right option of a "choice"; `query` the position a MEASURED question
    asks about (an attention query; the decoder position that writes the next token)."""

    kind: str
    prompt: Text = field(default_factory=dict)
    options: tuple[Text, ...] = ()
    answer: int | None = None
    explain: Text = field(default_factory=dict)
    query: int = 0


@dataclass(frozen=True)
class Step:
    """One step: the page and the view (a link's parameters) it shows, a note, a question."""

    page: str
    view: Mapping[str, str]
    note: Text = field(default_factory=dict)
    question: Question | None = None


@dataclass(frozen=True)
class Lesson:
    """A title and its steps, in order."""

    title: Text
    steps: tuple[Step, ...]


def text_in(text: Text, lang: str) -> str:
    """`text` in `lang`, else in the first language it is written in, else ""."""
    if text.get(lang):
        return text[lang]
    return next((text[other] for other in LANGS if text.get(other)), "")


def clean(text: str) -> str:
    """`text` without control characters other than line breaks and tabs (what a learner or
    a file may put in a note), with Windows line breaks made plain."""
    text = text.replace("\r\n", "\n")
    return "".join(ch for ch in text
                   if ch in "\n\t" or unicodedata.category(ch) not in ("Cc", "Cs"))


# ---- Lesson -> JSON -------------------------------------------------------------------


def _text_json(text: Text) -> dict[str, str]:
    return {lang: text[lang] for lang in LANGS if text.get(lang)}


def to_json(lesson: Lesson) -> dict[str, Any]:
    """The lesson as the JSON object of its file."""
    steps = []
    for step in lesson.steps:
        data: dict[str, Any] = {"page": step.page, "view": dict(step.view)}
        if _text_json(step.note):
            data["note"] = _text_json(step.note)
        q = step.question
        if q is not None:
            question: dict[str, Any] = {"kind": q.kind}
            if _text_json(q.prompt):
                question["prompt"] = _text_json(q.prompt)
            if q.kind in MEASURED:
                question["query"] = q.query
            else:
                question["options"] = [_text_json(o) for o in q.options]
                if q.kind == "choice":
                    question["answer"] = q.answer
            if _text_json(q.explain):
                question["explain"] = _text_json(q.explain)
            data["question"] = question
        steps.append(data)
    return {"format": FORMAT, "version": VERSION, "title": _text_json(lesson.title),
            "steps": steps}


def dumps(lesson: Lesson) -> bytes:
    """The lesson's file: UTF-8 JSON, readable by a person (Chinese left as it is)."""
    return json.dumps(to_json(lesson), ensure_ascii=False, indent=1).encode("utf-8")


def to_link(lesson: Lesson) -> str:
    """The lesson as one link parameter: LINK_PREFIX + base64url of the deflated JSON."""
    raw = json.dumps(to_json(lesson), ensure_ascii=False, separators=(",", ":"))
    packed = base64.urlsafe_b64encode(zlib.compress(raw.encode("utf-8"), 9)).decode("ascii")
    return LINK_PREFIX + packed.rstrip("=")


# ---- JSON -> Lesson (checked) ---------------------------------------------------------


def from_link(text: object) -> Lesson:
    """The lesson a link's parameter holds (`to_link`), checked as a file is."""
    if not isinstance(text, str) or not text.startswith(LINK_PREFIX):
        raise LessonError("lesson.err_link")
    if len(text) > MAX_LINK_CHARS:
        raise LessonError("lesson.err_too_big", kb=MAX_BYTES // 1000)
    data = text[len(LINK_PREFIX):]
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, MAX_BYTES + 1)  # never more than the limit: a
    except (binascii.Error, ValueError, zlib.error):  # small link cannot become gigabytes
        raise LessonError("lesson.err_link") from None
    if len(raw) > MAX_BYTES or inflate.unconsumed_tail:
        raise LessonError("lesson.err_too_big", kb=MAX_BYTES // 1000)
    return parse_lesson(raw)


def parse_lesson(raw: bytes | str) -> Lesson:
    """The lesson a file holds, checked; LessonError says what is wrong."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "replace")
    if len(raw) > MAX_BYTES:
        raise LessonError("lesson.err_too_big", kb=MAX_BYTES // 1000)
    try:
        data = json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise LessonError("lesson.err_json") from None
    top = _object(data, ("format", "version", "title", "steps"), "lesson.err_top")
    if top.get("format") != FORMAT:
        raise LessonError("lesson.err_format")
    version = top.get("version")
    if type(version) is not int or version < 1:
        raise LessonError("lesson.err_format")
    if version > VERSION:
        raise LessonError("lesson.err_newer", version=version)
    steps = top.get("steps")
    if not isinstance(steps, list) or not steps:
        raise LessonError("lesson.err_no_steps")
    if len(steps) > MAX_STEPS:
        raise LessonError("lesson.err_steps", n=MAX_STEPS)
    title = parse_text(top.get("title", {}), MAX_TITLE, "title", 0)
    return Lesson(title=title, steps=tuple(_step(s, i + 1) for i, s in enumerate(steps)))


def _no_constant(name: str) -> None:
    raise ValueError(name)  # NaN and Infinity are not JSON


_FIELD_NAME = re.compile(r"[A-Za-z_]{1,24}")


def _object(data: object, fields: tuple[str, ...], key: str, step: int = 0) -> dict[str, Any]:
    """`data` as a JSON object with only `fields`; an unknown field is named when its name
    is a plain word (never a file's arbitrary text)."""
    if not isinstance(data, dict):
        raise LessonError(key, step=step)
    for name in data:
        if name not in fields:
            shown = name if _FIELD_NAME.fullmatch(name) else "?"
            raise LessonError("lesson.err_field", field=shown, step=step,
                              fields=", ".join(fields))
    return data


def parse_text(data: object, limit: int, what: str, step: int) -> dict[str, str]:
    """A text in each language (`{"en": ..., "zh": ...}`, either may be left out)."""
    if not isinstance(data, dict):
        raise LessonError("lesson.err_text", what=what, step=step)
    _object(data, LANGS, "lesson.err_text", step)
    text: dict[str, str] = {}
    for lang, value in data.items():
        if not isinstance(value, str):
            raise LessonError("lesson.err_text", what=what, step=step)
        value = clean(value).strip()
        if len(value) > limit:
            raise LessonError("lesson.err_long", what=what, step=step, n=limit)
        if value:
            text[lang] = value
    return text


def _step(data: object, i: int) -> Step:
    step = _object(data, ("page", "view", "note", "question"), "lesson.err_step", i)
    page = step.get("page")
    if page not in PAGE_PATHS:
        raise LessonError("lesson.err_page", step=i, pages=", ".join(PAGE_PATHS))
    view = step.get("view", {})
    if not isinstance(view, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in view.items()):
        raise LessonError("lesson.err_view", step=i)
    for key in view:
        if key not in VIEW_KEYS:
            shown = key if _FIELD_NAME.fullmatch(key) else "?"
            raise LessonError("lesson.err_view_key", step=i, name=shown)
    _, notices = params_to_state(view)
    if notices:  # in the app's words: what is refused and what is valid, never the text
        raise LessonError("lesson.err_view_value", step=i, notice=notices[0])
    note = parse_text(step.get("note", {}), MAX_NOTE, "note", i)
    question = None if step.get("question") is None else parse_question(step["question"], i)
    return Step(page=page, view=dict(view), note=note, question=question)


def parse_question(data: object, i: int) -> Question:
    q = _object(data, ("kind", "prompt", "options", "answer", "explain", "query"),
                "lesson.err_question", i)
    kind = q.get("kind")
    if kind not in QUESTION_KINDS:
        raise LessonError("lesson.err_kind", step=i, kinds=", ".join(QUESTION_KINDS))
    prompt = parse_text(q.get("prompt", {}), MAX_PROMPT, "prompt", i)
    explain = parse_text(q.get("explain", {}), MAX_NOTE, "explain", i)
    if kind in MEASURED:
        query = q.get("query", 0)
        if type(query) is not int or not 0 <= query <= MAX_QUERY:
            raise LessonError("lesson.err_query", step=i, n=MAX_QUERY)
        return Question(kind=kind, prompt=prompt, explain=explain, query=query)
    options = q.get("options")
    low, high = OPTIONS_RANGE
    if not isinstance(options, list) or not low <= len(options) <= high:
        raise LessonError("lesson.err_options", step=i, low=low, high=high)
    texts = tuple(parse_text(o, MAX_OPTION, "option", i) for o in options)
    if any(not o for o in texts):
        raise LessonError("lesson.err_options", step=i, low=low, high=high)
    answer = q.get("answer")
    if kind == "choice" and (type(answer) is not int or not 0 <= answer < len(texts)):
        raise LessonError("lesson.err_answer", step=i, n=len(texts))
    if kind == "poll" and answer is not None:
        raise LessonError("lesson.err_poll", step=i)
    if not prompt:
        raise LessonError("lesson.err_prompt", step=i)
    return Question(kind=kind, prompt=prompt, options=texts,
                    answer=answer if kind == "choice" else None, explain=explain)


def shipped(name: str) -> Lesson:
    """One of the lessons the app ships (`SHIPPED`), read and checked as any file is."""
    if name not in SHIPPED:
        raise LessonError("lesson.err_link")
    return parse_lesson((SHIPPED_DIR / f"{name}.json").read_bytes())


# ---- Editing: each returns a new lesson ------------------------------------------------


def with_step(lesson: Lesson, at: int, step: Step) -> Lesson:
    """`lesson` with `step` put at index `at` (the steps after it move one on)."""
    steps = list(lesson.steps)
    steps.insert(max(0, min(at, len(steps))), step)
    return replace(lesson, steps=tuple(steps[:MAX_STEPS]))


def without_step(lesson: Lesson, at: int) -> Lesson:
    """`lesson` without its step `at` (a lesson keeps at least one step)."""
    if len(lesson.steps) <= 1 or not 0 <= at < len(lesson.steps):
        return lesson
    return replace(lesson, steps=lesson.steps[:at] + lesson.steps[at + 1:])


def moved(lesson: Lesson, at: int, by: int) -> Lesson:
    """`lesson` with its step `at` moved `by` places (-1: one earlier), within the lesson."""
    to = at + by
    if not (0 <= at < len(lesson.steps) and 0 <= to < len(lesson.steps)):
        return lesson
    steps = list(lesson.steps)
    steps[at], steps[to] = steps[to], steps[at]
    return replace(lesson, steps=tuple(steps))


def changed_step(lesson: Lesson, at: int, **changes: Any) -> Lesson:
    """`lesson` with its step `at` changed (`Step` fields: page, view, note, question)."""
    if not 0 <= at < len(lesson.steps):
        return lesson
    steps = list(lesson.steps)
    steps[at] = replace(steps[at], **changes)
    return replace(lesson, steps=tuple(steps))


def step_view(view: Mapping[str, str]) -> dict[str, str]:
    """The part of a link's parameters a step keeps: its view (`VIEW_KEYS`)."""
    return {k: v for k, v in view.items() if k in VIEW_KEYS}
