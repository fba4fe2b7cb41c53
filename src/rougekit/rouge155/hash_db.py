"""Reading a Berkeley DB hash file: the script's ``WordNet-2.0.exc.db``.

ROUGE-1.5.5.pl ties its WordNet exception table to a Berkeley DB hash file
with Perl's DB_File. rougekit reads such a file itself (no Berkeley DB
library needed), for the data folders users point the script at (``-e DIR``,
``$ROUGE_EVAL_HOME``). The format, as Berkeley DB 4.x-6.x write it (hash
version 8 to 10, either byte order):

- page 0 is the metadata page: magic 0x061561, the version, the page size,
  the page type 8 (hash metadata), no encryption;
- every other page starts with a 26-byte header (its number, the previous
  and next page of its chain, the number of entries, the high free offset,
  the level and the type) followed by ``entries`` 2-byte offsets of its
  items, which are packed from the page's end downwards: item ``i`` runs
  from its offset to the previous item's offset (the page's end for item 0);
- the pages of type 13 (hash, sorted) or 2 (hash, unsorted) hold the
  key/data pairs, key first: an item of type 1 is its bytes on the page; an
  item of type 3 lives on a chain of overflow pages (type 7), whose header's
  high free offset is the number of bytes on each, given as (page, length).

Every hash page holds only whole pairs, so reading all hash pages in order
gives every pair, whatever the buckets. Duplicate data items (a DB opened
with ``R_DUP``, which the script never makes), encrypted or checksummed
files, and other formats are refused with a ``HashDBError`` naming the file.

>>> import os, tempfile
>>> read_hash_db(os.devnull)
Traceback (most recent call last):
...
rougekit.rouge155.hash_db.HashDBError: /dev/null: not a Berkeley DB hash file (empty)
"""
import os
import struct
from typing import Dict

__all__ = ["HashDBError", "read_hash_db"]

_HASH_MAGIC = 0x061561
_P_HASH_UNSORTED, _P_OVERFLOW, _P_HASHMETA, _P_HASH = 2, 7, 8, 13
_H_KEYDATA, _H_DUPLICATE, _H_OFFPAGE, _H_OFFDUP = 1, 2, 3, 4
_PAGE_HEADER = 26


class HashDBError(ValueError):
    """A file that is not a Berkeley DB hash file rougekit can read."""


def read_hash_db(path) -> Dict[bytes, bytes]:
    """Every key/data pair of a Berkeley DB hash file, as bytes."""
    where = os.fsdecode(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise HashDBError(f"{where}: cannot read it ({e.strerror})") from None
    return _pairs(data, where)


def _pairs(data: bytes, where: str) -> Dict[bytes, bytes]:
    def refuse(why: str) -> HashDBError:
        return HashDBError(f"{where}: not a Berkeley DB hash file ({why})")

    if not data:
        raise refuse("empty")
    if len(data) < 512:
        raise refuse(f"{len(data)} bytes")
    for order in "<>":
        magic, version, page_size = struct.unpack_from(order + "III", data, 12)
        if magic == _HASH_MAGIC:
            break
    else:
        raise refuse("no hash magic number; a Berkeley DB 1.85 file or another format")
    if version not in (8, 9, 10):
        raise refuse(f"hash version {version}; rougekit reads versions 8 to 10")
    if page_size < 512 or page_size > 65536 or page_size & (page_size - 1):
        raise refuse(f"page size {page_size}")
    encrypted, meta_type = data[24], data[25]
    if meta_type != _P_HASHMETA:
        raise refuse(f"first page of type {meta_type}")
    if encrypted:
        raise refuse("encrypted")
    if len(data) % page_size:
        raise refuse(f"{len(data)} bytes, not a whole number of {page_size}-byte pages")
    pages = len(data) // page_size
    header = struct.Struct(order + "8xIIIHHBB")
    offset = struct.Struct(order + "H")
    offpage = struct.Struct(order + "3xII")

    def overflow(pgno: int, length: int) -> bytes:
        parts, seen, left = [], set(), length
        while left > 0:
            if not 0 < pgno < pages or pgno in seen:
                raise HashDBError(f"{where}: a broken overflow chain (page {pgno})")
            seen.add(pgno)
            base = pgno * page_size
            _, _, nxt, _, on_page, _, kind = header.unpack_from(data, base)
            if kind != _P_OVERFLOW or on_page > page_size - _PAGE_HEADER:
                raise HashDBError(f"{where}: page {pgno} is not an overflow page")
            parts.append(data[base + _PAGE_HEADER:base + _PAGE_HEADER + min(on_page, left)])
            left -= on_page
            pgno = nxt
        return b"".join(parts)

    def item(page: int, base: int, i: int, start: int, end: int) -> bytes:
        kind = data[base + start]
        if kind == _H_KEYDATA:
            return data[base + start + 1:base + end]
        if kind == _H_OFFPAGE:
            pgno, length = offpage.unpack_from(data, base + start + 1)
            return overflow(pgno, length)
        if kind in (_H_DUPLICATE, _H_OFFDUP):
            raise HashDBError(f"{where}: page {page} holds duplicate data items, which "
                              "the script's exception table never has")
        raise HashDBError(f"{where}: page {page}, item {i}: unknown item type {kind}")

    table: Dict[bytes, bytes] = {}
    for page in range(1, pages):
        base = page * page_size
        _, _, _, entries, _, _, kind = header.unpack_from(data, base)
        if kind not in (_P_HASH, _P_HASH_UNSORTED) or entries == 0:
            continue
        if entries % 2 or _PAGE_HEADER + 2 * entries > page_size:
            raise HashDBError(f"{where}: page {page} has {entries} entries")
        ends = [page_size]
        starts = []
        for i in range(entries):
            (start,) = offset.unpack_from(data, base + _PAGE_HEADER + 2 * i)
            if not _PAGE_HEADER + 2 * entries <= start < ends[-1]:
                raise HashDBError(f"{where}: page {page}, item {i} at a bad offset {start}")
            starts.append(start)
            ends.append(start)
        for i in range(0, entries, 2):
            key = item(page, base, i, starts[i], ends[i])
            table[key] = item(page, base, i + 1, starts[i + 1], ends[i + 1])
    return table
