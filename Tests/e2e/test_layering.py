"""The layers stay apart, as the README's Architecture says: the CLI carries neither the daemon's server (NIO)
nor its store (GRDB, SQLite)."""
import os
import subprocess

from conftest import BIN


def test_remindctl_carries_no_server_and_no_store():
    symbols = subprocess.run(["nm", "--defined-only", os.path.join(BIN, "remindctl")], capture_output=True, text=True, check=True).stdout
    # Swift's mangled module names: NIOPosix, NIOCore, GRDB.
    for module in ["8NIOPosix", "7NIOCore", "4GRDB"]:
        assert f"$s{module}" not in symbols, module
    linked = subprocess.run(["ldd", os.path.join(BIN, "remindctl")], capture_output=True, text=True, check=True).stdout
    assert "libsqlite3" not in linked
