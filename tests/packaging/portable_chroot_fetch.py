#!/usr/bin/env python3
"""Part of CTest portable.debian11_chroot (issue 39 item 2): the portable cudnnctl fetches over HTTPS from a
server on 127.0.0.1 whose certificate is signed by a throwaway CA, inside the Debian 11 chroot, where the CA is
installed at ONE distribution's usual place at a time (Debian/Ubuntu, RHEL/Fedora/Amazon, SUSE, Alpine), then in a
hashed folder named by SSL_CERT_DIR, then nowhere (a clear error naming what to set).

    portable_chroot_fetch.py ROOTFS WORK_ON_HOST WORK_IN_CHROOT

WORK_ON_HOST is a folder inside ROOTFS that the chroot sees as WORK_IN_CHROOT and that holds the binary as
`cudnnctl`. Whatever the chroot already holds at those places is moved aside and put back. Exit 0 when every
check passes (the caller has checked that the host has openssl).
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fetch"))
from https_site import NAME, VERSION, make_site, start_server  # noqa: E402

ROOTFS, W, IN = sys.argv[1:4]
if not shutil.which("openssl"):  # portable_chroot_test.sh skips before running anything without it
    print("FAIL: openssl is not installed on the host (needed to make the throwaway CA)")
    sys.exit(1)

T = os.path.join(W, "https")
# the places the portable binary looks for a bundle (src/platform/ca_certificates.cpp), one per distribution family
PLACES = [
    ("/etc/ssl/certs/ca-certificates.crt", "Debian/Ubuntu"),
    ("/etc/pki/tls/certs/ca-bundle.crt", "RHEL/Fedora/Amazon Linux"),
    ("/etc/ssl/ca-bundle.pem", "SUSE"),
    ("/etc/ssl/cert.pem", "Alpine"),
]
ALL_PLACES = [p for p, _ in PLACES] + ["/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
                                       "/var/lib/ca-certificates/ca-bundle.pem"]


failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what.splitlines()[0][:300])
    if not cond:
        failures.append(what)
        print(what)


def fetch_in_chroot(base, cache, env_extra=()):
    env = ["HOME=" + IN + "/home", "PATH=/usr/sbin:/usr/bin:/sbin:/bin", *env_extra]
    args = ["chroot", ROOTFS, "/usr/bin/env", "-i", *env, IN + "/cudnnctl", "-v", "fetch", VERSION, "--platform",
            "linux-x86_64", "--cuda", "13", "--catalog", IN + "/https/catalog.json", "--mirror", base,
            "--cache", IN + "/https/" + cache, "--timeout", "20", "--connections", "2"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=180)
    return r.returncode, r.stdout + r.stderr, os.path.isfile(os.path.join(T, cache, NAME))


def on_host(chroot_path):
    return ROOTFS + chroot_path


def move_aside():
    """Moves whatever the chroot holds at the places aside; returns what to put back."""
    moved = []
    for p in ALL_PLACES:
        h = on_host(p)
        if os.path.lexists(h):
            os.rename(h, h + ".cudnnctl-test-aside")
            moved.append(h)
    return moved


def install_only_at(place):
    """Copies the CA to one place in the chroot; returns the folders made for it (to remove afterwards)."""
    made, d = [], os.path.dirname(on_host(place))
    while not os.path.isdir(d):
        made.append(d)
        d = os.path.dirname(d)
    for m in reversed(made):
        os.mkdir(m)
    shutil.copyfile(os.path.join(T, "ca.pem"), on_host(place))
    return made


def remove(place, made):
    os.unlink(on_host(place))
    for m in made:  # deepest first
        os.rmdir(m)


def run_checks(base):
    for i, (place, family) in enumerate(PLACES):
        made = install_only_at(place)
        try:
            rc, out, got = fetch_in_chroot(base, f"cache-{i}")
            check(rc == 0 and got, f"{family}: fetch with the CA only at {place} works (rc {rc})\n{out}")
            check(f"trusting the CA certificates in {place} ({family})" in out, f"{family}: -v names {place}\n{out}")
        finally:
            remove(place, made)

    hashed = os.path.join(T, "hashed")
    os.mkdir(hashed)
    shutil.copyfile(os.path.join(T, "ca.pem"), os.path.join(hashed, "ca.pem"))
    subprocess.run(["openssl", "rehash", hashed], check=True, capture_output=True)
    rc, out, got = fetch_in_chroot(base, "cache-dir", ["SSL_CERT_DIR=" + IN + "/https/hashed"])
    check(rc == 0 and got, f"SSL_CERT_DIR naming a hashed folder works (rc {rc})\n{out}")
    check(f"{IN}/https/hashed (SSL_CERT_DIR)" in out, f"-v names the SSL_CERT_DIR folder\n{out}")

    rc, out, got = fetch_in_chroot(base, "cache-none")
    check(rc != 0 and not got, f"no CA anywhere: the download fails and keeps nothing (rc {rc})\n{out}")
    check("no CA certificates found" in out and "SSL_CERT_FILE" in out,
          f"no CA anywhere: the error says none was found and what to set\n{out}")


def main():
    if os.path.exists(T):
        shutil.rmtree(T)
    os.makedirs(T)
    base = start_server(T, make_site(T, 300000))
    moved = move_aside()
    if moved:
        print("note: moved aside for the test (put back after):", " ".join(moved))
    try:
        run_checks(base)
    finally:
        for h in moved:
            os.rename(h + ".cudnnctl-test-aside", h)
        shutil.rmtree(T, ignore_errors=True)
    if failures:
        print(f"{len(failures)} HTTPS check(s) failed in the chroot")
        sys.exit(1)
    print("fetch over HTTPS in the chroot: the CA found at each distribution's place and in SSL_CERT_DIR; none: a clear error")


main()
