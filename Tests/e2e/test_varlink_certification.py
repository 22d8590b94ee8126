"""The Varlink certification suite of the reference implementation (python `varlink`, `varlink/tests/
test_certification.py`) against remindd's Varlink layers, both ways:
- the reference client (`run_client`) against a server built on VarlinkServer, the one remindd runs on;
- the client layer remindctl uses (VarlinkConnection and typed calls) against the reference server."""
import os
import subprocess
import sys
import tempfile
import time

import pytest
import varlink
from varlink.tests import test_certification as reference

from conftest import BIN

CERTIFICATION = BIN / "varlink-certification"


def wait_for_socket(path, process):
    for _ in range(200):
        if os.path.exists(path):
            return
        assert process.poll() is None, process.stderr.read() if process.stderr else "the server exited"
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on {path}")


@pytest.fixture
def socket_path():
    with tempfile.TemporaryDirectory() as tmp:
        yield f"{tmp}/certification.sock"


def test_the_reference_client_certifies_our_server(socket_path, capsys):
    server = subprocess.Popen([str(CERTIFICATION), "serve", socket_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_socket(socket_path, server)
        with varlink.Client.new_with_address("unix:" + socket_path) as client:
            reference.run_client(client)
        assert "Certification passed" in capsys.readouterr().out
        # The server holds the suite to its order and values: a wrong call is refused, as the reference's is.
        with varlink.Client.new_with_address("unix:" + socket_path) as client, client.open("org.varlink.certification") as con:
            client_id = con.Start()["client_id"]
            with pytest.raises(varlink.VarlinkError) as wrong_order:
                con.Test02(client_id, True)
            assert wrong_order.value.error() == "org.varlink.certification.CertificationError"
            client_id = con.Start()["client_id"]
            con.Test01(client_id)
            with pytest.raises(varlink.VarlinkError) as wrong_value:
                con.Test02(client_id, False)
            assert wrong_value.value.parameters()["wants"]["bool"] is True
            with pytest.raises(varlink.VarlinkError) as unknown:
                con.Test01("not-a-client")
            assert unknown.value.error() == "org.varlink.certification.ClientIdError"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_our_client_certifies_against_the_reference_server(socket_path):
    server = subprocess.Popen([sys.executable, "-m", "varlink.tests.test_certification", "--varlink=unix:" + socket_path],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_socket(socket_path, server)
        result = subprocess.run([str(CERTIFICATION), "client", socket_path], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "Certification passed"
    finally:
        server.terminate()
        server.wait(timeout=10)
