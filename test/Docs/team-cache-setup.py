"""Runs the team cache setup of docs/Caching.md as the page writes it.

Usage: team-cache-setup.py CACHING_MD SRC_ROOT BUILD_DIR OUT

The page's fenced blocks, in order, with only these substitutions: its
placeholders (the server's name and address, the TLS port, the passwords)
become this machine's, the system directories (/etc/redis,
/etc/xpu-codegen) and $HOME become directories under OUT, and the server
key is not given to a user `redis` (the test's server runs as the test's
user). The server runs on the page's redis.conf lines; a writer fills it
with the page's xpu-opt command, then the page's Python and command-line
readers, each with an empty local cache, must take every module from it.
Prints one line per step for FileCheck.
"""
import os
import secrets
import shutil
import socket
import ssl
import subprocess
import sys
import time

doc, src_root, build, out = sys.argv[1:5]
sys.path.insert(0, os.path.join(src_root, "test", "Transforms",
                                "NativeCodegen", "SharedCache", "Inputs"))
from sharedcache import encode, free_port, read_reply  # noqa: E402

shutil.rmtree(out, ignore_errors=True)
dirs = {name: os.path.join(out, name)
        for name in ("keys", "etc-redis", "etc-xpu", "home", "data", "work")}
for path in dirs.values():
    os.makedirs(path)
os.chmod(out, 0o700)

text = open(doc, encoding="utf-8").read()


def section(title):
    start = text.index(title)
    end = text.find("\n### ", start + len(title))
    return text[start:end if end >= 0 else len(text)]


def blocks(part, lang):
    """The fenced blocks of `part` whose fence names `lang`, in order."""
    found, current, current_lang = [], None, None
    for line in part.splitlines(keepends=True):
        if line.startswith("```"):
            if current is None:
                current, current_lang = [], line[3:].strip()
            else:
                if current_lang == lang:
                    found.append("".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return found


port = free_port()
passwords = {name: secrets.token_hex(12)
             for name in ("ADMIN", "WRITER", "READER")}
substitutions = [("cache.example.org", "localhost"),
                 ("10.0.0.5", "127.0.0.1"), ("6380", str(port)),
                 (" -o redis -g redis", ""),
                 ("/etc/redis/", dirs["etc-redis"] + "/"),
                 ("/etc/xpu-codegen/", dirs["etc-xpu"] + "/")]
substitutions += [(f"{name}-PASSWORD", value)
                  for name, value in passwords.items()]


def local(block):
    for placeholder, value in substitutions:
        block = block.replace(placeholder, value)
    return block


env = dict(os.environ, HOME=dirs["home"],
           PATH=os.path.join(build, "bin") + os.pathsep + os.environ["PATH"],
           PYTHONPATH=os.path.join(build, "python_packages"))
for variable in list(env):
    if variable.startswith("XPU_CODEGEN_CACHE") or variable == "LD_PRELOAD":
        del env[variable]
# A sanitized build's Python extension needs the sanitizer runtime that
# lit preloads into Python; openssl and redis-server must not get it.
preload = os.environ.get("LD_PRELOAD")


def python_env():
    return dict(env, LD_PRELOAD=preload) if preload else env


def sh(block, cwd, label, python=False):
    run = subprocess.run(["sh", "-e", "-c", local(block)], cwd=cwd,
                         env=python_env() if python else env,
                         capture_output=True, text=True)
    print(f"{label}: exit {run.returncode}")
    if run.returncode:
        print(run.stderr)
        sys.exit(1)
    return run


server_part = section("### Running a server for a team")
team = section("### Team cache: ACL users, TLS and signed entries")
shell = blocks(team, "sh")
make_keys, install_server, install_machine, password_files, client_cert = \
    shell[:5]
writer_command = next(b for b in shell if b.startswith("xpu-opt "))
cli_reader = next(b for b in shell if "python3 -m xpu_codegen" in b)
[python_reader] = blocks(team, "python")
configs = [b for b in blocks(server_part, "") + blocks(team, "")
           if "\nappendonly" in b or "tls-port" in b]

sh(make_keys, dirs["keys"], "keys")
sh(install_server, dirs["keys"], "server files")
conf = os.path.join(out, "redis.conf")
with open(conf, "w") as f:
    f.write("\n".join(local(b) for b in configs))
    f.write(f"\ndir {dirs['data']}\nlogfile {out}/redis.log\n")
server = subprocess.Popen(["redis-server", conf], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
try:
    context = ssl.create_default_context(
        cafile=os.path.join(dirs["etc-redis"], "ca.crt"))

    def admin(*command):
        with socket.create_connection(("127.0.0.1", port), 5) as raw, \
                context.wrap_socket(raw, server_hostname="localhost") as s:
            f = s.makefile("rb")
            s.sendall(encode("AUTH", "admin", passwords["ADMIN"]))
            read_reply(f)
            s.sendall(encode(*command))
            return read_reply(f)

    deadline = time.time() + 20
    while True:
        try:
            ready = admin("PING") == "PONG"
            break
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                print("server did not start:",
                      open(f"{out}/redis.log").read()[-2000:])
                sys.exit(1)
            time.sleep(0.1)
    print("server up over TLS, admin PING:", ready)
    sh(install_machine, dirs["keys"], "machine files")
    sh(password_files, dirs["keys"], "password files")
    sh(client_cert, dirs["keys"], "client certificate")

    shutil.copy(os.path.join(src_root, "examples", "readme.mlir"),
                os.path.join(dirs["work"], "kernels.mlir"))
    env["XPU_CODEGEN_CACHE_DIR"] = os.path.join(out, "writer-cache")
    writer_run = sh(writer_command, dirs["work"], "writer")
    entries = admin("KEYS", "xpu-codegen:v1:entry:*")
    values = [admin("GET", key) for key in entries]
    print("entries stored:", len(entries) > 0, "all signed:",
          all(v.startswith(b"XPUSIGN1") for v in values))

    env["XPU_CODEGEN_CACHE_DIR"] = os.path.join(out, "python-reader-cache")
    script = os.path.join(out, "reader.py")
    with open(script, "w") as f:
        f.write(local(python_reader) +
                '\nprint("caches:", sorted({m.cache for m in modules}))\n')
    python_run = subprocess.run([sys.executable, script], cwd=dirs["work"],
                                env=python_env(), capture_output=True,
                                text=True)
    print("python reader:",
          python_run.stdout.strip() or python_run.stderr[-2000:])
    env["XPU_CODEGEN_CACHE_DIR"] = os.path.join(out, "cli-reader-cache")
    cli_run = sh(cli_reader, dirs["work"], "command-line reader",
                 python=True)
    print("command-line reader: cache hit:", "cache hit" in cli_run.stdout,
          "miss:", "miss" in cli_run.stdout)
    shown = writer_run.stdout + writer_run.stderr + python_run.stdout + \
        python_run.stderr + cli_run.stdout + cli_run.stderr
    print("passwords shown:", any(p in shown for p in passwords.values()))
finally:
    server.kill()
    server.wait()
