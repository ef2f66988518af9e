"""An .xz file whose data is stored, not compressed: a writable file object for tarfile.

NVIDIA's Linux archives are .tar.xz. The real-files corpus lays one out from each Linux wheel (about 1 GB of
libraries, mostly GPU code that xz barely shrinks); compressing it costs minutes of CPU per wheel, and tests
nothing cudnnctl's streaming reader does not see in a stored stream. The .xz format (tukaani.org/xz/xz-file-format.txt)
lets LZMA2 carry uncompressed chunks (control byte 1, then 2: at most 64 KiB each), so this writes a valid .xz
stream at the speed of the disk: one block, an LZMA2 filter, CRC32 checks, the index and the footer. xz -t,
libarchive and every other decoder read it.
"""
import struct
import zlib

_MAGIC = b"\xfd7zXZ\x00"
_FLAGS = b"\x00\x01"  # check type 1: CRC32
_CHUNK = 1 << 16


def _varint(n):
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _with_crc(data):
    return data + struct.pack("<I", zlib.crc32(data))


class StoredXzWriter:
    """write() what the .xz holds; close() writes the end of the stream and closes the file under it."""

    def __init__(self, out):
        self._out = out
        self._pending = bytearray()
        self._crc = 0
        self._size = 0          # uncompressed bytes
        self._data = 0          # LZMA2 bytes of the block (chunk headers, data, end marker)
        self._first = True
        out.write(_MAGIC + _with_crc(_FLAGS))
        # block header: size byte, flags (one filter, no sizes), filter 0x21 (LZMA2) with one property byte
        # (dictionary size 4 KiB: stored chunks use none), padded to 4 bytes, then its CRC32
        body = bytes([0x00, 0x21, 0x01, 0x00])
        header = bytes([(1 + len(body) + 3 + 4) // 4 - 1]) + body + b"\x00" * 3
        self._header = _with_crc(header)
        out.write(self._header)

    def write(self, data):
        self._pending += data
        self._crc = zlib.crc32(data, self._crc)
        self._size += len(data)
        while len(self._pending) >= _CHUNK:
            self._chunk(bytes(self._pending[:_CHUNK]))
            del self._pending[:_CHUNK]
        return len(data)

    def _chunk(self, data):
        control = 0x01 if self._first else 0x02  # 1: uncompressed, dictionary reset; 2: uncompressed
        self._first = False
        self._out.write(struct.pack(">BH", control, len(data) - 1) + data)
        self._data += 3 + len(data)

    def close(self):
        if self._pending:
            self._chunk(bytes(self._pending))
            self._pending.clear()
        self._out.write(b"\x00")  # LZMA2 end of data
        self._data += 1
        self._out.write(b"\x00" * (-self._data % 4))  # block padding
        self._out.write(struct.pack("<I", self._crc))
        unpadded = len(self._header) + self._data + 4
        index = b"\x00" + _varint(1) + _varint(unpadded) + _varint(self._size)
        index += b"\x00" * (-len(index) % 4)
        index = _with_crc(index)
        self._out.write(index)
        footer = struct.pack("<I", len(index) // 4 - 1) + _FLAGS
        self._out.write(struct.pack("<I", zlib.crc32(footer)) + footer + b"YZ")
        self._out.close()
