"""The team cache from Python: compile()'s cache_password_file, cache_tls_ca,
cache_tls_cert, cache_tls_key, cache_sign_key and cache_trust keywords (and
the CLI's flags) against a real redis-server with ACL users and a TLS port
that requires client certificates, with a CA, certificates and Ed25519 keys
made by openssl here (docs/Caching.md, "Team cache")."""

import os
import shutil
import subprocess

import pytest

import xpu_codegen
from conftest import INPUTS, free_port, redis_server, run_cli, spirv

PASSWORDS = {"writer": "wr1ter-Secret", "reader": "r3ader-Secret"}
# The variables the keywords stand for: none of them may leak in.
VARIABLES = ("URL", "PASSWORD", "PASSWORD_FILE", "TLS_CA", "TLS_CERT",
             "TLS_KEY", "SIGN_KEY", "TRUST")


def _require(tool):
    # tools/xpu-dev installs both; a test that cannot run must fail, not
    # pass unnoticed.
    if not shutil.which(tool):
        pytest.fail(f"{tool} is not installed (tools/xpu-dev installs it)")


def _openssl(directory, *args):
    subprocess.run(["openssl", *args], cwd=directory, check=True,
                   capture_output=True)


def _make_pki(directory):
    """A CA, a server certificate for 127.0.0.1, a client certificate, the
    users' password files and two Ed25519 keys (team, other)."""
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
          "-nodes"]
    _openssl(directory, "req", "-x509", *ec, "-keyout", "ca.key", "-out",
             "ca.crt", "-subj", "/CN=ca", "-days", "2")
    (directory / "server.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    for name, ext in (("server", ["-extfile", "server.ext"]), ("client", [])):
        _openssl(directory, "req", *ec, "-keyout", f"{name}.key", "-out",
                 f"{name}.csr", "-subj", f"/CN={name}")
        _openssl(directory, "x509", "-req", "-in", f"{name}.csr", "-CA",
                 "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                 f"{name}.crt", "-days", "2", *ext)
    os.chmod(directory / "client.key", 0o600)
    for key in ("team", "other"):
        _openssl(directory, "genpkey", "-algorithm", "ed25519", "-out",
                 f"{key}.pem")
        os.chmod(directory / f"{key}.pem", 0o600)
        _openssl(directory, "pkey", "-in", f"{key}.pem", "-pubout", "-out",
                 f"{key}.pub")
    for user, password in PASSWORDS.items():
        (directory / f"{user}.password").write_text(password + "\n")
        os.chmod(directory / f"{user}.password", 0o600)


@pytest.fixture
def team_server(tmp_path, monkeypatch):
    """A private redis-server: the default user off, a writer and a reader
    limited to reads, a TLS port requiring client certificates. Yields
    (the TLS port, the pki directory)."""
    _require("redis-server")
    _require("openssl")
    for variable in VARIABLES:
        monkeypatch.delenv("XPU_CODEGEN_CACHE_" + variable, raising=False)
    pki = tmp_path / "pki"
    pki.mkdir()
    _make_pki(pki)
    port, tls_port = free_port(), free_port()
    keys = ["~xpu-codegen:*", "-@all", "+ping", "+select"]
    with redis_server(
            tmp_path, port,
            "--tls-port", str(tls_port),
            "--tls-cert-file", str(pki / "server.crt"),
            "--tls-key-file", str(pki / "server.key"),
            "--tls-ca-cert-file", str(pki / "ca.crt"),
            "--tls-auth-clients", "yes",
            "--user", "default", "off",
            "--user", "writer", "on", ">" + PASSWORDS["writer"], *keys,
            "+get", "+set", "+exists", "+eval", "+del",
            "--user", "reader", "on", ">" + PASSWORDS["reader"], *keys,
            "+get", "+exists", ready_port=tls_port):
        yield tls_port, pki


def _security(pki, user, **keys):
    """The keywords of `user` over TLS with the client certificate."""
    return dict(cache_password_file=pki / f"{user}.password",
                cache_tls_ca=str(pki / "ca.crt"),
                cache_tls_cert=pki / "client.crt",
                cache_tls_key=pki / "client.key", **keys)


def test_signed_entries_through_keywords(team_server, tmp_path):
    """A writer signs with cache_sign_key; a reader that trusts the team's
    key (cache_trust) takes the shared entry; one that trusts another key
    refuses it with one warning and compiles the same binary itself."""
    port, pki = team_server
    url = f"rediss://{{}}@127.0.0.1:{port}"
    [written] = xpu_codegen.compile(
        spirv("nospill"), cache_dir=tmp_path / "writer",
        cache_url=url.format("writer"),
        **_security(pki, "writer", cache_sign_key=pki / "team.pem"))
    assert written.cache == "miss"
    [read] = xpu_codegen.compile(
        spirv("nospill"), cache_dir=tmp_path / "reader",
        cache_url=url.format("reader"),
        **_security(pki, "reader", cache_trust=[pki / "other.pub",
                                                 pki / "team.pub"]))
    assert read.cache == "hit"
    assert read.report_entry["cache_tier"] == "shared"
    assert read.binary == written.binary
    with pytest.warns(xpu_codegen.CompileWarning,
                      match="a key not in cache-trust") as caught:
        [refused] = xpu_codegen.compile(
            spirv("nospill"), cache_dir=tmp_path / "untrusting",
            cache_url=url.format("reader"),
            **_security(pki, "reader", cache_trust=str(pki / "other.pub")))
    assert refused.cache == "miss"
    assert refused.binary == written.binary
    for warning in caught:
        for password in PASSWORDS.values():
            assert password not in str(warning.message)


def test_client_certificate_is_required(team_server, tmp_path):
    """Without cache_tls_cert/cache_tls_key the server refuses the
    connection: one warning, and the local cache only."""
    port, pki = team_server
    with pytest.warns(xpu_codegen.CompileWarning,
                      match="shared compile cache unavailable"):
        [module] = xpu_codegen.compile(
            spirv("nospill"), cache_dir=tmp_path / "a",
            cache_url=f"rediss://writer@127.0.0.1:{port}",
            cache_password_file=pki / "writer.password",
            cache_tls_ca=pki / "ca.crt")
    assert module.cache == "miss"


def test_cli_flags(team_server, tmp_path):
    """`python3 -m xpu_codegen compile` takes the same as flags; the second
    machine's run is a shared hit."""
    port, pki = team_server
    spv = INPUTS / "nospill.spv"
    common = ["--cache-tls-ca", pki / "ca.crt",
              "--cache-tls-cert", pki / "client.crt",
              "--cache-tls-key", pki / "client.key"]
    writer = run_cli("compile", spv, "--cache-dir", tmp_path / "w",
                     "--cache-url", f"rediss://writer@127.0.0.1:{port}",
                     "--cache-password-file", pki / "writer.password",
                     "--cache-sign-key", pki / "team.pem", *common,
                     "-o", tmp_path / "w.zebin", cwd=tmp_path)
    assert writer.returncode == 0, writer.stderr
    reader = run_cli("compile", spv, "--cache-dir", tmp_path / "r",
                     "--cache-url", f"rediss://reader@127.0.0.1:{port}",
                     "--cache-password-file", pki / "reader.password",
                     "--cache-trust", f"{pki / 'other.pub'},"
                     f"{pki / 'team.pub'}", *common,
                     "-o", tmp_path / "r.zebin", cwd=tmp_path)
    assert reader.returncode == 0, reader.stderr
    assert "cache hit" in reader.stdout
    assert reader.stderr == ""
    assert (tmp_path / "r.zebin").read_bytes() == \
        (tmp_path / "w.zebin").read_bytes()


@pytest.mark.parametrize("keywords, error", [
    ({"cache_trust": ""}, ValueError),
    ({"cache_trust": []}, ValueError),
    ({"cache_trust": ["a,b.pub"]}, ValueError),
    ({"cache_sign_key": 7}, TypeError),
    ({"cache_tls_ca": "ca\0.crt"}, ValueError),
])
def test_bad_security_keywords(keywords, error):
    with pytest.raises(error):
        xpu_codegen.compile(spirv("nospill"), cache_dir="none", **keywords)
