"""The shared libraries a bundle may carry from the build machine (an allow-list).

PyInstaller copies every shared library a bundled binary needs; what it finds depends on the
build machine. Qt's GTK 3 platform theme (``libqgtk3.so``), for one, pulls GTK, GDK, cairo,
ATK, Pango and their chain wherever GTK 3 is installed, which made the bundle 260 MiB on a
desktop and 235 MiB on a server. The spec leaves that theme out and keeps, at the bundle's
top level (libraries collected as dependencies, outside the Python packages' own folders),
only the names below; ``tests/packaging/test_bundle.py`` lists the built bundle's libraries
against the same list.

Everything else a bundled binary needs comes from the system at run time, like X11, EGL,
fontconfig and D-Bus (``packaging/README.md`` lists the packages).
"""
from __future__ import annotations

import fnmatch
import re

#: fnmatch patterns of the top-level shared libraries a bundle may hold (the interpreter and
#: the compression, FFI, XML and math libraries the standard library's and the wheels'
#: extension modules link against).
ALLOWED_TOP_LEVEL = (
    "libpython3*.so*",
    "libz.so*", "libbz2.so*", "liblzma.so*", "libzstd.so*",
    "libffi.so*", "libexpat.so*", "libmpdec.so*", "libuuid.so*",
    "libcrypto.so*", "libssl.so*",
    "libgcc_s.so*", "libstdc++.so*", "libgomp.so*", "libgfortran.so*", "libquadmath.so*",
    "libreadline.so*", "libtinfo.so*", "libncursesw.so*", "libsqlite3.so*",
    # what Qt's xcb platform plugin and its fonts need, as the bundle has carried them (built on
    # Debian 12 without GTK: the bundle that passes --self-test): X11 and xcb, xkbcommon,
    # fontconfig with FreeType, PNG and Brotli, GLib with PCRE2, and the Kerberos/GSSAPI
    # chain QtNetwork links against
    "libX11.so*", "libX11-xcb.so*", "libxcb-*.so*", "libxkbcommon.so*", "libxkbcommon-x11.so*",
    "libfontconfig.so*", "libfreetype.so*", "libpng16.so*", "libbrotlicommon.so*",
    "libbrotlidec.so*", "libglib-2.0.so*", "libgthread-2.0.so*", "libpcre2-8.so*",
    "libgssapi_krb5.so*", "libkrb5.so*", "libkrb5support.so*", "libk5crypto.so*",
    "libcom_err.so*", "libkeyutils.so*",
)

#: Libraries that must never be in a bundle whatever the build machine has (checked by the
#: test as well, in every folder): GTK and its drawing and accessibility stack.
FORBIDDEN = ("libgtk-*", "libgdk-*", "libgdk_pixbuf*", "libcairo*", "libatk-*", "libatk-bridge*",
             "libatspi*", "libpango*", "libharfbuzz*", "libepoxy*", "libqgtk3.so")


#: The wheels' own libraries, which PyInstaller also places at the top level: Qt and PySide6
#: (with Qt's ICU), Python extension modules, and the libraries auditwheel vendored into a
#: wheel under a hashed name (``libgfortran-040039e1-0352e75f.so.5.0.0``,
#: ``libscipy_openblas-5f890258.so``): the same on every build machine.
WHEELS_OWN = ("libQt6*.so*", "libpyside6*.so*", "libshiboken6*.so*", "libicu*.so*",
              "*.cpython-*.so")
_HASHED = re.compile(r"-[0-9a-f]{8}(-[0-9a-f]{8})?\.so")


def allowed(name: str) -> bool:
    """Whether a top-level shared library ``name`` (a file name) may be in the bundle."""
    if forbidden(name):
        return False
    return any(fnmatch.fnmatch(name, p) for p in ALLOWED_TOP_LEVEL + WHEELS_OWN) \
        or _HASHED.search(name) is not None


def forbidden(name: str) -> bool:
    """Whether ``name`` (a file name, in any folder) is one of :data:`FORBIDDEN`."""
    return any(fnmatch.fnmatch(name, p) for p in FORBIDDEN)
