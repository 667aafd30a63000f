"""Team cache scenarios: a real redis-server with ACL users (admin, a
writer, a reader limited to reads) and a TLS port, with a CA, certificates
and Ed25519 keys made by `openssl` here. Usage: team.py NAME DIR. Each run
must end with the output of a cache-less run and exit 0 (nothing lost);
passwords must appear nowhere. Prints what FileCheck checks; exits 1 with
FAILED: on a broken expectation."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sharedcache import (RedisServer, check, child_env, encode,  # noqa
                         free_port, make_input, read_reply, xpu_opt)

MODULES = ("nospill", "spill_small_only")
PASSWORDS = {"admin": "adm1n-Secret", "writer": "wr1ter-Secret",
             "reader": "r3ader-Secret"}
WRONG_PASSWORD = "not-the-password"


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True,
                   capture_output=True, env=child_env())


def make_pki(dir):
    """A CA, server certificates for 127.0.0.1 (valid, expired, for another
    host, by another CA) and Ed25519 signing keys (team, attacker)."""
    os.makedirs(dir, exist_ok=True)
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
          "-nodes"]
    for ca in ("ca", "rogue-ca"):
        openssl("req", "-x509", *ec, "-keyout", f"{ca}.key", "-out",
                f"{ca}.crt", "-subj", f"/CN={ca}", "-days", "2", cwd=dir)
    openssl("req", *ec, "-keyout", "server.key", "-out", "server.csr",
            "-subj", "/CN=redis", cwd=dir)
    for name, ca, days, san in (
            ("server", "ca", "2", "IP:127.0.0.1"),
            ("expired", "ca", "-1", "IP:127.0.0.1"),
            ("otherhost", "ca", "2", "DNS:cache.example.org"),
            ("rogue", "rogue-ca", "2", "IP:127.0.0.1")):
        with open(os.path.join(dir, f"{name}.ext"), "w") as f:
            f.write(f"subjectAltName={san}\n")
        openssl("x509", "-req", "-in", "server.csr", "-CA", f"{ca}.crt",
                "-CAkey", f"{ca}.key", "-CAcreateserial", "-out",
                f"{name}.crt", "-days", days, "-extfile", f"{name}.ext",
                cwd=dir)
    # A client certificate, for servers that require one.
    openssl("req", *ec, "-keyout", "client.key", "-out", "client.csr",
            "-subj", "/CN=builder", cwd=dir)
    openssl("x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey",
            "ca.key", "-CAcreateserial", "-out", "client.crt", "-days", "2",
            cwd=dir)
    os.chmod(os.path.join(dir, "client.key"), 0o600)
    for key in ("team", "attacker"):
        openssl("genpkey", "-algorithm", "ed25519", "-out", f"{key}.pem",
                cwd=dir)
        os.chmod(os.path.join(dir, f"{key}.pem"), 0o600)
        openssl("pkey", "-in", f"{key}.pem", "-pubout", "-out",
                f"{key}.pub", cwd=dir)
    for user, password in (*PASSWORDS.items(), ("wrong", WRONG_PASSWORD)):
        path = os.path.join(dir, f"{user}.password")
        with open(path, "w") as f:
            f.write(password + "\n")
        os.chmod(path, 0o600)
    return dir


class TeamServer(RedisServer):
    """A private redis-server: a plain port and a TLS port (certificate
    `cert` of `pki`), the default user off, ACL users admin, writer (its
    keys only: get, set, exists and the lock script) and reader (get,
    exists)."""

    def __init__(self, dir, pki, cert="server", auth_clients="optional"):
        self.pki, self.cert, self.auth_clients = pki, cert, auth_clients
        super().__init__(dir)

    def server_args(self):
        self.tls_port = free_port()
        keys = ["~xpu-codegen:*", "-@all", "+ping", "+select"]
        return ["--tls-port", str(self.tls_port),
                "--tls-cert-file", os.path.join(self.pki, f"{self.cert}.crt"),
                "--tls-key-file", os.path.join(self.pki, "server.key"),
                "--tls-ca-cert-file", os.path.join(self.pki, "ca.crt"),
                "--tls-auth-clients", self.auth_clients,
                "--user", "default", "off",
                "--user", "admin", "on", ">" + PASSWORDS["admin"], "~*",
                "+@all",
                "--user", "writer", "on", ">" + PASSWORDS["writer"], *keys,
                "+get", "+set", "+exists", "+eval", "+del",
                "--user", "reader", "on", ">" + PASSWORDS["reader"], *keys,
                "+get", "+exists"]

    def url(self, user, tls=True):
        if tls:
            return f"rediss://{user}@127.0.0.1:{self.tls_port}"
        return f"redis://{user}@127.0.0.1:{self.port}"

    def command(self, *args, user="admin"):
        """One command on the plain port, as `user` (None: no AUTH)."""
        with socket.create_connection(("127.0.0.1", self.port), 5) as s:
            f = s.makefile("rb")
            if user:
                s.sendall(encode("AUTH", user, PASSWORDS[user]))
                read_reply(f)
            s.sendall(encode(*args))
            return read_reply(f)

    def entries(self):
        return sorted(k.decode() for k in
                      self.command("KEYS", "xpu-codegen:v1:entry:*"))

    def connections(self):
        """Connections accepted so far, the one asking included."""
        info = self.command("INFO", "stats")
        for line in info.decode().splitlines():
            if line.startswith("total_connections_received:"):
                return int(line.split(":")[1])
        raise RuntimeError("INFO stats without total_connections_received")


def security_env(pki, user=None, ca="ca", sign=None, trust=None):
    """The variables of a client: `user`'s password file, the CA file, the
    signing key and the trusted key (names of files in `pki`)."""
    env = {"XPU_CODEGEN_CACHE_CONNECT_TIMEOUT_MS": "3000"}
    if user:
        env["XPU_CODEGEN_CACHE_PASSWORD_FILE"] = \
            os.path.join(pki, f"{user}.password")
    if ca:
        env["XPU_CODEGEN_CACHE_TLS_CA"] = os.path.join(pki, f"{ca}.crt")
    if sign:
        env["XPU_CODEGEN_CACHE_SIGN_KEY"] = os.path.join(pki, f"{sign}.pem")
    if trust:
        env["XPU_CODEGEN_CACHE_TRUST"] = os.path.join(pki, f"{trust}.pub")
    return env


class HandshakeKiller:
    """A proxy to the TLS port that passes the client's first bytes (the
    ClientHello) to the server and half of the server's first answer back,
    then kills the server (SIGKILL) and closes both connections."""

    def __init__(self, server):
        self.server = server
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(4)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def url(self, user):
        return f"rediss://{user}@127.0.0.1:{self.port}"

    def _serve(self):
        client, _ = self.listener.accept()
        upstream = socket.create_connection(("127.0.0.1",
                                             self.server.tls_port), 5)
        upstream.sendall(client.recv(65536))
        answer = upstream.recv(65536)
        client.sendall(answer[:len(answer) // 2])
        self.server.process.kill()
        self.server.process.wait()
        client.close()
        upstream.close()
        self.listener.close()


class Team:
    """The machines of a team: each run gets a fresh local cache (another
    machine) unless `machine` is reused, and must reproduce the reference
    output with exit 0; passwords must not appear in what it printed or
    wrote."""

    def __init__(self, dir):
        shutil.rmtree(dir, ignore_errors=True)
        os.makedirs(dir)
        os.chmod(dir, 0o755)
        self.dir = dir
        self.pki = make_pki(os.path.join(dir, "pki"))
        self.input = make_input(os.path.join(dir, "in.mlir"), *MODULES)
        ref = xpu_opt(self.input, os.path.join(dir, "none"), name="reference",
                      extra="cache-dir=none")
        check(ref.returncode == 0, "reference compile failed: " + ref.stderr)
        self.reference = ref.output
        self.count = 0

    def env(self, user=None, ca="ca", sign=None, trust=None):
        return security_env(self.pki, user, ca, sign, trust)

    def run(self, label, url, env, extra=""):
        self.count += 1
        name = f"m{self.count}"
        run = xpu_opt(self.input, os.path.join(self.dir, name), url,
                      name=name, env=env, extra=extra)
        check(run.returncode == 0, f"{label}: {run.stderr}")
        written = run.stderr + str(run.report) + str(run.output)
        for password in (*PASSWORDS.values(), WRONG_PASSWORD):
            check(password not in written, f"{label}: a password was shown")
        print(f"{label}: identical output:", run.output == self.reference,
              "states:", " ".join(run.cache_states()))
        for w in run.warnings():
            text = w.split("warning: ", 1)[1]
            for port in ("127.0.0.1:%d" % p for p in self.ports):
                text = text.replace(port, "127.0.0.1:PORT")
            print("  warning:", text)
        return run


def acl(dir):
    """ACL users: a wrong password and a reader writing are one warning
    each and local-only; an attacker without credentials cannot write."""
    team = Team(dir)
    with TeamServer(os.path.join(dir, "redis"), team.pki) as server:
        team.ports = (server.port, server.tls_port)
        env = team.env("writer")
        env["XPU_CODEGEN_CACHE_PASSWORD_FILE"] = ""
        env["XPU_CODEGEN_CACHE_PASSWORD"] = WRONG_PASSWORD
        team.run("wrong password", server.url("writer", tls=False), env)
        team.run("reader on a cold server", server.url("reader", tls=False),
                 team.env("reader"))
        print("entries after the reader:", len(server.entries()))
        team.run("writer", server.url("writer", tls=False),
                 team.env("writer"))
        print("entries after the writer:", len(server.entries()))
        # The password in the URL (visible in the process list, but never
        # in what the run prints or writes).
        team.run("reader, warm", server.url("reader", tls=False).replace(
            "reader@", "reader:%s@" % PASSWORDS["reader"]), team.env())
        key = server.entries()[0]
        print("no credentials, SET:", server.command("SET", key, "x",
                                                      user=None))
        print("reader, SET:", server.command("SET", key, "x", user="reader"))


def tls(dir):
    """rediss://: verified against the CA file; an expired certificate,
    one for another host, one by an unknown CA and a server killed in the
    handshake are one warning each and local-only, never a hang."""
    team = Team(dir)
    with TeamServer(os.path.join(dir, "redis"), team.pki) as server:
        team.ports = (server.port, server.tls_port)
        # A handshake costs more than the commands: each run's commands
        # (lookups, locks and stores from parallel threads) share one.
        for user in ("writer", "reader"):
            before = server.connections()
            team.run(f"{user} over TLS", server.url(user), team.env(user))
            print("  TLS connections:", server.connections() - before - 1)
        team.run("reader, system CA store", server.url("reader"),
                 team.env("reader", ca=None))
        # Killed mid-handshake: the server has the ClientHello and sent part
        # of its answer when it dies.
        proxy = HandshakeKiller(server)
        team.ports += (proxy.port,)
        team.run("killed mid-handshake", proxy.url("reader"),
                 team.env("reader"))
        print("  server dead:", server.process.poll() is not None)
    with TeamServer(os.path.join(dir, "redis-frozen"), team.pki) as server:
        team.ports = (server.port, server.tls_port)
        # Frozen: the kernel accepts the connection, nothing answers the
        # handshake; the connect deadline (3 s here) ends it.
        server.process.send_signal(signal.SIGSTOP)
        start = time.time()
        team.run("frozen in the handshake", server.url("reader"),
                 team.env("reader"))
        sys.stderr.write(f"frozen: {time.time() - start:.1f} s\n")
    for cert in ("expired", "otherhost", "rogue"):
        with TeamServer(os.path.join(dir, "redis-" + cert), team.pki,
                        cert) as server:
            team.ports = (server.port, server.tls_port)
            team.run(f"{cert} certificate", server.url("writer"),
                     team.env("writer"))
            print("  entries:", len(server.entries()))


def signed(dir):
    """Signed entries: with a trust list, an entry swapped between keys,
    one re-signed by an untrusted key and an unsigned one are misses with
    one warning naming the server and the key; never used."""
    team = Team(dir)
    with TeamServer(os.path.join(dir, "redis"), team.pki) as server:
        team.ports = (server.port, server.tls_port)
        url = server.url("writer")
        reader = server.url("reader")
        team.run("signed by the team", url, team.env("writer", sign="team"))
        team.run("reader trusting the team", reader,
                 team.env("reader", trust="team"))
        # Swapped: every entry holds another key's valid, signed entry.
        entries = server.entries()
        values = [server.command("GET", k) for k in entries]
        for key, value in zip(entries, values[1:] + values[:1]):
            server.command("SET", key, value)
        team.run("entries swapped between keys", reader,
                 team.env("reader", trust="team"))
        # Without a trust list a swapped entry is still refused (it names
        # its key), as before signing.
        team.run("swapped, no trust list", reader, team.env("reader"))
        # Someone with the write credential but not the key.
        server.command("FLUSHALL")
        team.run("writer with another key", url,
                 team.env("writer", sign="attacker"))
        team.run("reader trusting the team", reader,
                 team.env("reader", trust="team"))
        server.command("FLUSHALL")
        team.run("unsigned writer", url, team.env("writer"))
        team.run("reader trusting the team", reader,
                 team.env("reader", trust="team"))
        print("attacker key:", fingerprint(team.pki, "attacker"))


def options(dir):
    """The same through the pass options (cache-password-file=,
    cache-tls-ca=, cache-tls-cert=, cache-tls-key=, cache-sign-key=,
    cache-trust=) instead of the variables, which they override: a server
    that requires client certificates, a wrong password, a trust list."""
    team = Team(dir)
    pki = team.pki

    def files(password=None, cert=False, sign=None, trust=None):
        given = [f"cache-tls-ca={pki}/ca.crt"]
        if password:
            given.append(f"cache-password-file={pki}/{password}.password")
        if cert:
            given += [f"cache-tls-cert={pki}/client.crt",
                      f"cache-tls-key={pki}/client.key"]
        if sign:
            given.append(f"cache-sign-key={pki}/{sign}.pem")
        if trust:
            given.append("cache-trust=" + ",".join(
                f"{pki}/{key}.pub" for key in trust))
        return " ".join(given)

    # Variables the options must override: the right password, the
    # attacker trusted.
    env = security_env(pki, "writer", ca=None, trust="attacker")
    with TeamServer(os.path.join(dir, "redis"), pki,
                    auth_clients="yes") as server:
        team.ports = (server.port, server.tls_port)
        team.run("wrong password", server.url("writer", tls=False), env,
                 files("wrong"))
        team.run("no client certificate", server.url("writer"), env,
                 files("writer"))
        print("  entries:", len(server.entries()))
        team.run("writer, client certificate", server.url("writer"), env,
                 files("writer", cert=True, sign="team"))
        print("  entries:", len(server.entries()))
        team.run("reader trusting the team", server.url("reader"), env,
                 files("reader", cert=True, trust=("team",)))
        server.command("FLUSHALL")
        team.run("writer with another key", server.url("writer"), env,
                 files("writer", cert=True, sign="attacker"))
        team.run("reader trusting the team", server.url("reader"), env,
                 files("reader", cert=True, trust=("team",)))
        team.run("reader trusting both", server.url("reader"), env,
                 files("reader", cert=True, trust=("team", "attacker")))


def fingerprint(pki, name):
    """ed25519: and the first 16 bytes of the SHA-256 of the raw key."""
    import hashlib
    der = subprocess.run(["openssl", "pkey", "-pubin", "-in",
                          os.path.join(pki, f"{name}.pub"), "-outform",
                          "DER"], capture_output=True, check=True).stdout
    return "ed25519:" + hashlib.sha256(der[-32:]).hexdigest()[:32]


if __name__ == "__main__":
    globals()[sys.argv[1]](sys.argv[2])
