"""The script's inputs: its XML configuration and its ``-z`` file lists.

A :class:`Config` lists evaluations; each :class:`Evaluation` names, per
system (peer) ID, the file of that system's summary, and the model
(reference) summaries it is compared with, in the format of its files
(``SEE``, ``SPL`` or ``ISI``).

``read_config(path)`` reads the XML configuration as ROUGE-1.5.5.pl does::

    <ROUGE-EVAL version="1.5.5">
    <EVAL ID="1">
    <PEER-ROOT>systems</PEER-ROOT>
    <MODEL-ROOT>models</MODEL-ROOT>
    <INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>
    <PEERS><P ID="A">d1.A.txt</P><P ID="B">d1.B.txt</P></PEERS>
    <MODELS><M ID="1">d1.1.txt</M><M ID="2">d1.2.txt</M></MODELS>
    </EVAL>
    </ROUGE-EVAL>

Element names match in any case; a root and a file name are the text of
their element with surrounding whitespace removed, and a path is
``root + "/" + file`` (so a relative root is relative to the working
directory, not to the configuration). Models are used in document order.
An evaluation without a summary for some system is left out of that
system's average (the script prints a warning).

``read_file_list(path, fmt)`` reads a ``-z`` list: one evaluation per line,
``peer model1 model2 ...`` separated by whitespace, ``#`` comments and blank
lines skipped; evaluation IDs are 1, 2, ... in line order, and the one system
is ``system_id`` (``"X"`` unless given). A UTF-8 byte order mark at its start
is dropped (the script would take it for part of the first path); the XML
configuration may start with one too (XML allows it).

Errors (a missing file, malformed XML, an element the script would die on)
raise ``FileNotFoundError`` or :class:`ConfigError` (a ``ValueError``) with a
message naming the file and the line (of the element, for an element the
script would die on).
"""
import dataclasses
import os
import re
import xml.etree.ElementTree as ET
from typing import Any, Dict, List, Optional, Tuple, Union
from xml.parsers import expat

__all__ = ["Config", "Evaluation", "ConfigError", "read_config", "read_file_list",
           "INPUT_FORMATS"]

Path = Union[str, bytes]
# A summary: a path, or (from Python) a text held in memory.
Source = Any

# The formats the XML configuration accepts (in any case). SIMPLE is for BE
# (-3) only: reading a summary in it fails as it does in the script.
INPUT_FORMATS = ("SEE", "ISI", "SPL", "SIMPLE")


class ConfigError(ValueError):
    """A configuration the script cannot use: the message names the file."""


@dataclasses.dataclass
class Evaluation:
    """One evaluation: a summary per system, compared with the same models.

    ``peers`` maps a system ID to its summary's path; ``models`` lists
    ``(model ID, path)`` in the order the script uses them; ``input_format``
    is the format as written (matched in any case), None if not given.
    """
    id: str
    input_format: Optional[str] = None
    peers: Dict[str, Source] = dataclasses.field(default_factory=dict)
    models: List[Tuple[str, Source]] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Config:
    """Evaluations in document order, and every system ID they name
    (``systems``, sorted as the script sorts them for ``-a``)."""
    evaluations: List[Evaluation]
    systems: List[str]
    source: Optional[Path] = None
    file_list: bool = False


# Perl's \s on a character string (XML::Parser's strings are Unicode).
_PERL_SPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B)))
               + "\u2028\u2029\u202f\u205f\u3000")


def _trim(text):
    return text.strip(_PERL_SPACE)


def _parse_xml(path):
    """The document's bytes and root element, comments and processing
    instructions kept: XML::DOM's text nodes are the character data (CDATA
    included) between two other nodes, and the script reads each of them."""
    with open(path, "rb") as f:
        data = f.read()
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True, insert_pis=True))
    try:
        parser.feed(data)
        return data, parser.close()
    except ET.ParseError as e:
        line = e.position[0] if e.position else 0
        message = str(e).split(": line")[0]
        raise ConfigError("%s line %d: not a valid XML configuration (%s)"
                          % (os.fsdecode(path), line, message)) from None


def _element_line(data, root, node):
    """The line of ``node``'s start tag, or None: ElementTree keeps no
    positions, so the document is parsed again (only for an error message)
    by expat as ElementTree parses it, and the n-th start tag's line is the
    n-th element's in document order."""
    elements = (e for e in root.iter() if isinstance(e.tag, str))
    index = next((i for i, e in enumerate(elements) if e is node), None)
    lines: List[int] = []
    parser = expat.ParserCreate(None, "}")
    parser.DefaultHandlerExpand = lambda text: None
    parser.StartElementHandler = lambda *_: lines.append(parser.CurrentLineNumber)
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        pass
    return lines[index] if index is not None and index < len(lines) else None


def _texts(elem):
    """The text nodes of an element, in order."""
    if not len(elem):
        return [elem.text] if elem.text else []
    return [t for t in [elem.text] + [child.tail for child in elem] if t]


def read_config(path: Path) -> Config:
    """Read the script's XML configuration file (see the module docstring).

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> with open(os.path.join(d, "c.xml"), "w") as f:
    ...     _ = f.write('<ROUGE-EVAL><EVAL ID="7"><PEER-ROOT> p </PEER-ROOT>'
    ...                 '<MODEL-ROOT>m</MODEL-ROOT><INPUT-FORMAT TYPE="SPL"/>'
    ...                 '<PEERS><P ID="B">b.txt</P><P ID="A">a.txt</P></PEERS>'
    ...                 '<MODELS><M ID="x">r.txt</M></MODELS></EVAL></ROUGE-EVAL>')
    >>> config = read_config(os.path.join(d, "c.xml"))
    >>> config.systems, config.evaluations[0].peers, config.evaluations[0].models
    (['A', 'B'], {'B': 'p/b.txt', 'A': 'p/a.txt'}, [('x', 'm/r.txt')])
    """
    where = os.fsdecode(path)
    data, root = _parse_xml(path)
    evals: Dict[str, dict] = {}
    order: List[str] = []
    systems: Dict[str, None] = {}

    def fail(node, message):
        line = _element_line(data, root, node)
        raise ConfigError("%s%s: <%s>: %s" % (where, "" if line is None else " line %d" % line,
                                              node.tag, message))

    def attribute(node, name):
        if name not in node.attrib:
            fail(node, "no %s attribute" % name)
        return node.attrib[name]

    def entry(node, eval_id):
        if eval_id is None or eval_id not in evals:
            fail(node, "outside an <EVAL> (the script dies: \"Evaluation database does "
                       "not contain entry for this evaluation ID\")")
        return evals[eval_id]

    # The script's readEvals, a recursive walk over the elements, here with
    # a stack of (sibling iterator, eval id): a configuration nested
    # thousands of elements deep is read as the script reads it.
    stack = [(iter([root]), None)]
    while stack:
        children, eval_id = stack[-1]
        node = next(children, None)
        if node is None:
            stack.pop()
            continue
        tag = node.tag
        if not isinstance(tag, str):            # a comment or processing instruction
            continue
        name = tag.upper()
        if name == "EVAL":
            ev_id = attribute(node, "ID")
            if ev_id not in evals:
                evals[ev_id] = {"IF": None, "PR": None, "MR": None, "Ps": {}, "MIDs": [],
                                "Ms": {}}
                order.append(ev_id)
            stack.append((iter(node), ev_id))
        elif name == "INPUT-FORMAT":
            fmt = attribute(node, "TYPE")
            if fmt.rstrip("\n").upper() not in INPUT_FORMATS or fmt.count("\n") > 1:
                fail(node, "unknown input type %r (SEE, SPL, ISI or SIMPLE)" % fmt)
            entry(node, eval_id)["IF"] = fmt
        elif name == "PEER-ROOT" or name == "MODEL-ROOT":
            for text in _texts(node):
                entry(node, eval_id)["PR" if name == "PEER-ROOT" else "MR"] = _trim(text)
        elif name == "PEERS":
            for child in node:
                if isinstance(child.tag, str) and child.tag.upper() == "P":
                    peer = attribute(child, "ID")
                    systems.setdefault(peer)
                    ev = entry(child, eval_id)
                    for text in _texts(child):
                        ev["Ps"][peer] = _trim(text)
        elif name == "MODELS":
            for child in node:
                if isinstance(child.tag, str) and child.tag.upper() == "M":
                    model = attribute(child, "ID")
                    ev = entry(child, eval_id)
                    ev["MIDs"].append(model)
                    for text in _texts(child):
                        ev["Ms"][model] = _trim(text)
        else:
            stack.append((iter(node), eval_id))
    evaluations = []
    for eval_id in order:
        ev = evals[eval_id]
        peer_root = ev["PR"] or ""
        model_root = ev["MR"] or ""
        models = []
        for model in ev["MIDs"]:
            if model not in ev["Ms"]:
                raise ConfigError("%s: evaluation %s: model %s has no file name"
                                  % (where, eval_id, model))
            models.append((model, model_root + "/" + ev["Ms"][model]))
        evaluations.append(Evaluation(
            id=eval_id, input_format=ev["IF"],
            peers={peer: peer_root + "/" + name for peer, name in ev["Ps"].items()},
            models=models))
    return Config(evaluations=evaluations, systems=sorted(systems), source=path)


_BLANK = re.compile(rb"^\s*$")
_UTF8_BOM = b"\xef\xbb\xbf"


def read_file_list(path: Path, input_format: str = "SPL", system_id: str = "X") -> Config:
    """Read a ``-z`` file list: ``peer model1 [model2 ...]`` per line.

    Paths are taken as they are (bytes, not decoded). ``input_format`` is the
    ``-z`` value; ``system_id`` the system the summaries belong to.
    """
    where = os.fsdecode(path)
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(_UTF8_BOM):      # a Windows editor's mark, not part of a path
        data = data[len(_UTF8_BOM):]
    evaluations: List[Evaluation] = []
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if line.startswith(b"#") or _BLANK.match(line):
            continue
        files = line.split()
        if len(files) < 2:
            raise ConfigError("%s line %d: a line lists a peer and at least one model "
                              "(peer model1 model2 ... modelN)" % (where, number))
        evaluations.append(Evaluation(
            id=str(len(evaluations) + 1), input_format=input_format,
            peers={system_id: files[0]},
            models=[("M.%d" % k, f) for k, f in enumerate(files[1:], 1)]))
    return Config(evaluations=evaluations, systems=[system_id], source=path, file_list=True)
