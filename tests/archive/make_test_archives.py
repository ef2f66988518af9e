#!/usr/bin/env python3
"""Writes the good, odd and hostile archives the archive tests read.

    make_test_archives.py OUTDIR

Everything is small and made here, by Python's zipfile/tarfile, Info-ZIP `zip` and `7z` when present.
Each hostile archive breaks exactly one rule; its name says which.
"""
import io
import os
import random
import struct
import shutil
import stat
import subprocess
import sys
import tarfile
import zipfile

W91 = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive"
L91 = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive"
W76 = "cuda"  # legacy top folder

def header(major, minor, patch):
    return f"#define CUDNN_MAJOR {major}\n#define CUDNN_MINOR {minor}\n#define CUDNN_PATCHLEVEL {patch}\n".encode()


HEADER = header(9, 1, 0)


def win_members(top):
    m = {f"{top}/include/cudnn_version.h": HEADER, f"{top}/LICENSE": b"license text\n"}
    for lib in ("cudnn", "cudnn_ops", "cudnn_cnn"):
        m[f"{top}/bin/{lib}64_9.dll"] = os.urandom(20000) + b"\0" * 20000
        m[f"{top}/lib/x64/{lib}.lib"] = b"import library " * 100
    return m


def write_zip(path, members, dirs=True, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as z:
        if dirs:
            seen = set()
            for name in members:
                parts = name.split("/")[:-1]
                for i in range(1, len(parts) + 1):
                    d = "/".join(parts[:i]) + "/"
                    if d not in seen:
                        seen.add(d)
                        z.writestr(zipfile.ZipInfo(d), b"")
        for name, data in members.items():
            z.writestr(name, data)


def zip_with_symlink(path, top, link, target):
    write_zip(path, win_members(top), dirs=False)
    with zipfile.ZipFile(path, "a") as z:
        info = zipfile.ZipInfo(f"{top}/{link}")
        info.create_system = 3
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        z.writestr(info, target)


def tar_xz(path, top, extra=None, links=True, version_header=HEADER):
    with tarfile.open(path, "w:xz") as t:
        def add(name, data=None, kind=tarfile.REGTYPE, target="", mode=0o644):
            ti = tarfile.TarInfo(name)
            ti.type = kind
            ti.mode = mode
            if kind == tarfile.REGTYPE:
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            else:
                ti.linkname = target
                t.addfile(ti)
        add(top, kind=tarfile.DIRTYPE, mode=0o755)
        add(f"{top}/include", kind=tarfile.DIRTYPE, mode=0o755)
        add(f"{top}/lib", kind=tarfile.DIRTYPE, mode=0o755)
        add(f"{top}/include/cudnn_version.h", version_header)
        add(f"{top}/LICENSE", b"license text\n")
        for lib in ("libcudnn", "libcudnn_ops"):
            add(f"{top}/lib/{lib}.so.9.1.0", os.urandom(30000), mode=0o755)
            if links:
                add(f"{top}/lib/{lib}.so.9", kind=tarfile.SYMTYPE, target=f"{lib}.so.9.1.0")
                add(f"{top}/lib/{lib}.so", kind=tarfile.SYMTYPE, target=f"{lib}.so.9")
        for item in extra or []:
            add(*item)


def main():
    out = sys.argv[1]
    shutil.rmtree(out, ignore_errors=True)
    good = os.path.join(out, "good")
    bad = os.path.join(out, "hostile")
    odd = os.path.join(out, "odd")
    for d in (good, bad, odd):
        os.makedirs(d)

    # ---- good archives: one per writer, same content
    members = win_members(W91)
    write_zip(os.path.join(good, f"python-{W91}.zip"), members)
    src = os.path.join(out, "src")
    for name, data in members.items():
        p = os.path.join(src, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    if shutil.which("zip"):
        subprocess.run(["zip", "-q", "-r", "-X", os.path.abspath(os.path.join(good, f"infozip-{W91}.zip")), W91], cwd=src, check=True)
    if shutil.which("7z"):
        subprocess.run(["7z", "a", "-tzip", "-bso0", "-bsp0", os.path.abspath(os.path.join(good, f"7z-{W91}.zip")), W91], cwd=src, check=True)
    tar_xz(os.path.join(good, f"{L91}.tar.xz"), L91)
    with tarfile.open(os.path.join(good, "cudnn-11.2-linux-x64-v8.1.1.33.tgz"), "w:gz") as t:
        for name, data in {"cuda/include/cudnn_version.h": header(8, 1, 1), "cuda/lib64/libcudnn.so.8.1.1": b"x" * 1000,
                           "cuda/NVIDIA_SLA_cuDNN_Support.txt": b"license"}.items():
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            t.addfile(ti, io.BytesIO(data))
    write_zip(os.path.join(good, "cudnn-10.2-windows10-x64-v7.6.5.32.zip"),
              {"cuda/bin/cudnn64_7.dll": b"d" * 5000, "cuda/include/cudnn.h": header(7, 6, 5), "cuda/lib/x64/cudnn.lib": b"l" * 100})

    # ---- large incompressible members after the small ones, for reading an archive while it arrives
    # (arriving_extract_test): libzip looks for a zip's end record in its last 64 KiB and libarchive's xz filter
    # decodes 64 KiB at a time, so the small archives above would be wanted nearly whole before a first member
    arriving = os.path.join(out, "arriving")
    os.makedirs(arriving)
    big = random.Random(9).randbytes
    write_zip(os.path.join(arriving, f"{W91}.zip"),
              {f"{W91}/include/cudnn_version.h": HEADER, f"{W91}/LICENSE": b"license text\n",
               f"{W91}/bin/cudnn64_9.dll": big(100000), f"{W91}/bin/cudnn_cnn64_9.dll": big(100000)}, dirs=False)
    tar_xz(os.path.join(arriving, f"{L91}.tar.xz"), L91,
           extra=[(f"{L91}/lib/libcudnn_cnn.so.9.1.0", big(200000)), (f"{L91}/lib/libcudnn_adv.so.9.1.0", big(200000))])

    # ---- other eras and CUDA variants, for installs into 11.8 trees
    tar_xz(os.path.join(good, "cudnn-linux-x86_64-9.1.0.70_cuda11-archive.tar.xz"), "cudnn-linux-x86_64-9.1.0.70_cuda11-archive")
    w86 = "cudnn-windows-x86_64-8.6.0.163_cuda11-archive"
    write_zip(os.path.join(good, f"{w86}.zip"),
              {f"{w86}/bin/cudnn64_8.dll": b"d" * 3000, f"{w86}/bin/cudnn_cnn_infer64_8.dll": b"c" * 3000,
               f"{w86}/include/cudnn_version.h": header(8, 6, 0), f"{w86}/lib/cudnn.lib": b"l" * 300, f"{w86}/LICENSE": b"license"})

    # ---- hostile zips: each breaks one rule
    def hz(rule, extra_name, data=b"x"):
        m = win_members(W91)
        m[extra_name] = data
        write_zip(os.path.join(bad, f"{rule}.zip"), m, dirs=False)

    hz("absolute", "/etc/cron.d/evil")
    hz("drive-letter", "C:/Windows/System32/evil.dll")
    hz("unc", "//server/share/evil.dll")
    hz("dotdot", f"{W91}/../../evil.dll")
    hz("backslash-dotdot", f"{W91}\\..\\..\\evil.dll")
    hz("ads", f"{W91}/bin/cudnn64_9.dll:Zone.Identifier")
    hz("device-con", f"{W91}/include/CON.h")
    hz("device-lpt", f"{W91}/bin/lpt1")
    hz("trailing-dot", f"{W91}/bin/evil.dll.")
    hz("trailing-space", f"{W91}/bin/evil.dll ")
    hz("outside-top", "other-folder/evil.dll")
    hz("case-collision", f"{W91}/BIN/cudnn64_9.dll")
    m = win_members(W91)
    write_zip(os.path.join(bad, "duplicate.zip"), m, dirs=False)
    with zipfile.ZipFile(os.path.join(bad, "duplicate.zip"), "a") as z:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z.writestr(f"{W91}/bin/cudnn64_9.dll", b"second copy")
    zip_with_symlink(os.path.join(bad, "symlink-out.zip"), W91, "bin/evil.dll", "../../../../etc/passwd")
    zip_with_symlink(os.path.join(bad, "symlink-absolute.zip"), W91, "bin/evil.dll", "/etc/passwd")
    hz("bomb-ratio", f"{W91}/bin/zeros.dll", b"\0" * (4 << 20))

    # ---- hostile tars
    tar_xz(os.path.join(bad, "tar-symlink-out.tar.xz"), L91, [(f"{L91}/lib/evil.so", None, tarfile.SYMTYPE, "../../../etc/passwd")])
    tar_xz(os.path.join(bad, "tar-hardlink-out.tar.xz"), L91, [(f"{L91}/lib/evil.so", None, tarfile.LNKTYPE, "/etc/passwd")])
    tar_xz(os.path.join(bad, "tar-below-link.tar.xz"), L91,
           [(f"{L91}/escape", None, tarfile.SYMTYPE, "include"), (f"{L91}/escape/x.h", b"through the link")])
    tar_xz(os.path.join(bad, "tar-dotdot.tar.xz"), L91, [(f"{L91}/../evil", b"x")])
    tar_xz(os.path.join(bad, "tar-absolute.tar.xz"), L91, [("/tmp/evil", b"x")])
    tar_xz(os.path.join(bad, "tar-fifo.tar.xz"), L91, [(f"{L91}/fifo", None, tarfile.FIFOTYPE, "")])
    adv = f"{L91}/lib/libcudnn_adv.so"
    tar_xz(os.path.join(bad, "tar-link-cycle.tar.xz"), L91, [(f"{adv}.9.1.0", None, tarfile.SYMTYPE, "libcudnn_adv.so"),
                                                             (adv, None, tarfile.SYMTYPE, "libcudnn_adv.so.9"),
                                                             (f"{adv}.9", None, tarfile.SYMTYPE, "libcudnn_adv.so.9.1.0")])
    tar_xz(os.path.join(bad, "tar-link-dangling.tar.xz"), L91, [(adv, None, tarfile.SYMTYPE, "libcudnn_adv.so.7")])
    tar_xz(os.path.join(bad, "tar-file-and-folder.tar.xz"), L91, [(f"{L91}/include/cudnn_adv.h", b"x"), (f"{L91}/include/cudnn_adv.h/x", b"y")])
    tar_xz(os.path.join(bad, "tar-xz-bomb.tar.xz"), L91, [(f"{adv}.9.1.0", b"\0" * (16 << 20))])
    m = {k: v for k, v in win_members(W91).items() if not k.endswith(".dll")}
    write_zip(os.path.join(odd, "no-dll.zip"), m)

    # ---- content that disagrees with NVIDIA's name, or is not cuDNN's
    tar_xz(os.path.join(odd, "header-mismatch.tar.xz"), L91, version_header=header(9, 2, 0))
    tar_xz(os.path.join(odd, "wrong-major-lib.tar.xz"), L91, [(f"{L91}/lib/libcudnn_ops_infer.so.8", b"old")])
    tar_xz(os.path.join(odd, "replaces-cuda-h.tar.xz"), L91, [(f"{L91}/include/cuda.h", b"not cuDNN's")])

    # ---- odd: damaged, not archives, encodings
    good_zip = os.path.join(good, f"python-{W91}.zip")
    data = open(good_zip, "rb").read()
    open(os.path.join(odd, "truncated.zip"), "wb").write(data[: len(data) - 300])
    # flip bytes inside the first member's compressed data: CRC or inflate error
    crc = bytearray(data)
    with zipfile.ZipFile(good_zip) as z:
        info = [i for i in z.infolist() if i.file_size > 1000][0]
    off = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra) + 100
    for i in range(off, off + 16):
        crc[i] ^= 0x55
    open(os.path.join(odd, "crc.zip"), "wb").write(bytes(crc))
    # one member per way a zip stores its bytes: deflated across many 1 MiB reads, empty, stored, bzip2
    # (the last goes through libzip's own decompression), each with content a test can recompute
    big = bytes((i * 2654435761 >> 13) & 0xFF for i in range(3 << 20)) + b"tail" * 1000
    methods = os.path.join(odd, "methods.zip")
    with zipfile.ZipFile(methods, "w") as z:
        z.writestr(zipfile.ZipInfo(f"{W91}/bin/"), b"")
        z.writestr(f"{W91}/bin/big.dll", big, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(f"{W91}/bin/empty.dll", b"", compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(f"{W91}/bin/stored.dll", b"stored bytes " * 100, compress_type=zipfile.ZIP_STORED)
        z.writestr(f"{W91}/bin/bzip2.dll", b"bzip2 bytes " * 100, compress_type=zipfile.ZIP_BZIP2)
    # a stored member with flipped bytes: nothing to inflate, so only the CRC can catch it
    mdata = bytearray(open(methods, "rb").read())
    with zipfile.ZipFile(methods) as z:
        info = z.getinfo(f"{W91}/bin/stored.dll")
    off = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra) + 10
    mdata[off] ^= 0x20
    open(os.path.join(odd, "crc-stored.zip"), "wb").write(bytes(mdata))
    # a deflated member whose first block has the reserved type 3 (an inflate error at byte 0), and one
    # whose second half is zeros (which inflate to more than the member declares)
    with zipfile.ZipFile(methods) as z:
        info = z.getinfo(f"{W91}/bin/big.dll")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    garbage = bytearray(open(methods, "rb").read())
    garbage[start] = 0xFF
    open(os.path.join(odd, "inflate-garbage.zip"), "wb").write(bytes(garbage))
    runaway = bytearray(open(methods, "rb").read())
    runaway[start + info.compress_size // 2 : start + info.compress_size] = b"\0" * (info.compress_size - info.compress_size // 2)
    open(os.path.join(odd, "inflate-runaway.zip"), "wb").write(bytes(runaway))
    # a deflated member that inflates cleanly to bytes whose CRC-32 differs from the one recorded
    # (in its local header and the central directory alike)
    crc_bytes = struct.pack("<I", info.CRC)
    wrong = open(methods, "rb").read()
    assert wrong.count(crc_bytes) == 2
    open(os.path.join(odd, "crc-deflated.zip"), "wb").write(wrong.replace(crc_bytes, struct.pack("<I", info.CRC ^ 1)))
    open(os.path.join(odd, "login-page.zip"), "wb").write(
        b"<!DOCTYPE html>\n<html><head><title>NVIDIA Developer - Login</title></head><body>Please log in</body></html>\n")
    open(os.path.join(odd, "empty.zip"), "wb").write(b"")
    open(os.path.join(odd, "error-text.zip"), "wb").write(b"403 Forbidden: access denied\n")
    tgood = open(os.path.join(good, f"{L91}.tar.xz"), "rb").read()
    open(os.path.join(odd, "truncated.tar.xz"), "wb").write(tgood[: len(tgood) // 2])
    bad_xz = bytearray(tgood)
    for i in range(200, 260):
        bad_xz[i] ^= 0xFF
    open(os.path.join(odd, "corrupt.tar.xz"), "wb").write(bytes(bad_xz))
    # a legacy re-pack: a CP437 name (0x81 = u-umlaut) without the UTF-8 flag; written with an ASCII
    # placeholder and patched in both headers, since zipfile itself would store UTF-8
    cp = os.path.join(odd, "cp437.zip")
    write_zip(cp, {f"{W91}/include/#ber.h": b"x", f"{W91}/LICENSE": b"l"}, dirs=False)
    raw = open(cp, "rb").read().replace(b"/include/#ber.h", b"/include/\x81ber.h")
    open(cp, "wb").write(raw)
    # mojibake already baked into UTF-8 names
    write_zip(os.path.join(odd, "mojibake-fffd.zip"), {f"{W91}/include/cudnn\ufffd.h": b"x"}, dirs=False)
    write_zip(os.path.join(odd, "mojibake-ideographic-stop.zip"), {f"{W91}/include/cudnn\u3002h": b"x"}, dirs=False)
    write_zip(os.path.join(odd, "mojibake-kunjinkao.zip"), {f"{W91}/include/\u951f\u65a4\u62f7.h": b"x"}, dirs=False)
    shutil.rmtree(src)
    print(f"wrote test archives to {out}")


if __name__ == "__main__":
    main()
