"""A local Neo4j Community server for development and CI, from Maven Central.

``start`` fetches the ``org.neo4j:neo4j`` jars with Maven (cached), compiles the
small launcher in ``launcher/``, starts it in the background with Bolt on
127.0.0.1, and waits until it answers. ``stop`` ends it. Both are safe to call twice.

Authentication is on. The first start generates a password into the data folder
(``kg-neo4j.password``, mode 0600) and sets it with Bolt off; kg finds it again
from the URI of a server it started (``local_auth``), other clients get it from
``kg neo4j env``.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from kg.config import Settings
from kg.errors import ServerError

__all__ = ["LocalNeo4j", "ServerError", "NEO4J_VERSION", "USERNAME", "local_auth", "neo4j_auth", "pid_alive"]

NEO4J_VERSION = "5.26.0"
USERNAME = "neo4j"
PASSWORD_FILE = "kg-neo4j.password"  # in the data folder, mode 0600


def _private(folder: Path) -> None:
    """The data folder, made if needed and narrowed to its user (0700): the database, its password, its log."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.stat().st_mode & 0o077:
        folder.chmod(0o700)


def _password_digest(password: str, salt: bytes | None = None) -> str:
    """What kg keeps to know the password it set last: a salted scrypt digest (mode 0600), never the password."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${salt.hex()}${digest.hex()}"


def _same_password(kept: str, password: str) -> bool:
    """Whether a kept digest (``_password_digest``) is this password's; a digest of another kind never is."""
    kind, _, rest = kept.partition("$")
    salt, _, _ = rest.partition("$")
    if kind != "scrypt" or not salt:
        return False
    return secrets.compare_digest(_password_digest(password, bytes.fromhex(salt)), kept)


_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_LAUNCHER_SRC = Path(__file__).resolve().parent / "launcher"
# The module opens Neo4j's own neo4j.conf asks for on Java 17.
_JVM_FLAGS = [
    "-Xms256m",
    "-Xmx2g",
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--add-opens=java.base/java.lang=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dlog4j2.disable.jmx=true",
]


def _need(tool: str, why: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise ServerError(
            f"`{tool}` is not installed, and it is needed to {why}. Install a JDK 17 and Maven "
            "(Debian: apt-get install openjdk-17-jdk-headless maven), or use docker-compose.yml."
        )
    return path


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs on this host (one we may not signal still runs)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class LocalNeo4j:
    """One local server: its jars (shared cache), its data folder, its port."""

    data_dir: Path
    port: int = 7687
    cache_dir: Path = Path.home() / ".cache" / "kg" / f"neo4j-{NEO4J_VERSION}"

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    @property
    def pid_file(self) -> Path:
        return self.data_dir / "kg-neo4j.pid"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "kg-neo4j.log"

    @property
    def password_file(self) -> Path:
        return self.data_dir / PASSWORD_FILE

    def password(self) -> str:
        """The server's password, generated (mode 0600) the first time."""
        try:
            return self.password_file.read_text().strip()
        except FileNotFoundError:
            pass
        _private(self.data_dir)
        try:
            fd = os.open(self.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another start made it first
            return self.password_file.read_text().strip()
        password = secrets.token_urlsafe(24)
        with os.fdopen(fd, "w") as out:
            out.write(password + "\n")
        return password

    def _ensure_password(self, java: str, classpath: str, say) -> str:
        """Set the password file's password in the database when it is not the one set last (first start,
        a folder from before auth, or a password file the user replaced). Bolt stays off meanwhile."""
        marker = self.data_dir / "kg-neo4j.password-set"
        password = self.password()
        if marker.exists() and _same_password(marker.read_text().strip(), password):
            return password
        say("setting the Neo4j password (kept in the data folder, mode 0600)")
        result = subprocess.run(
            [
                java,
                *_JVM_FLAGS,
                "-cp",
                classpath,
                "kg.Neo4jServer",
                "--data",
                str(self.data_dir.resolve() / "db"),
                "--set-password-file",
                str(self.password_file.resolve()),
            ],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        if result.returncode != 0:
            tail = (result.stdout + result.stderr).strip().splitlines()[-20:]
            raise ServerError("could not set the Neo4j password:\n" + "\n".join(tail))
        marker.unlink(missing_ok=True)
        with os.fdopen(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as out:
            out.write(_password_digest(password) + "\n")
        return password

    # -- fetching -------------------------------------------------------------------------
    def fetch(self, *, tries: int = 5, say=print) -> Path:
        """The jar folder, downloading it with Maven the first time (retrying 429s and time-outs)."""
        lib = self.cache_dir / "lib"
        done = self.cache_dir / ".complete"
        if not done.exists():
            mvn = _need("mvn", "download the Neo4j jars from Maven Central")
            say(f"fetching Neo4j {NEO4J_VERSION} jars with Maven into {lib} (once; about 130 MB)")
            for attempt in range(1, tries + 1):
                result = subprocess.run(
                    [
                        mvn,
                        "-B",
                        "-q",
                        "-f",
                        str(_LAUNCHER_SRC / "pom.xml"),
                        f"-Dneo4j.version={NEO4J_VERSION}",
                        "dependency:copy-dependencies",
                        f"-DoutputDirectory={lib}",
                    ],
                    capture_output=True,
                    text=True,
                )
                if result.returncode == 0:
                    break
                if attempt == tries:
                    tail = (result.stdout + result.stderr).strip().splitlines()[-15:]
                    raise ServerError("Maven could not fetch the Neo4j jars:\n" + "\n".join(tail))
                wait = 5 * attempt
                say(f"Maven failed (try {attempt}/{tries}, e.g. 429 Too Many Requests); retrying in {wait}s")
                time.sleep(wait)
            done.write_text(NEO4J_VERSION)
        classes = self.cache_dir / "classes"
        source = _LAUNCHER_SRC / "src" / "main" / "java" / "kg" / "Neo4jServer.java"
        compiled = classes / "kg" / "Neo4jServer.class"
        if not compiled.exists() or compiled.stat().st_mtime < source.stat().st_mtime:
            javac = _need("javac", "compile the Neo4j launcher")
            result = subprocess.run([javac, "-d", str(classes), "-cp", f"{lib}/*", str(source)], capture_output=True, text=True)
            if result.returncode != 0:
                raise ServerError(f"could not compile the launcher:\n{result.stderr}")
        return lib

    # -- running ----------------------------------------------------------------------------
    def running(self) -> tuple[int, int] | None:
        """(pid, port) of the server running on this data folder, if one does."""
        if not self.pid_file.exists():
            return None
        try:
            fields = self.pid_file.read_text().split()
            pid, port = int(fields[0]), int(fields[1]) if len(fields) > 1 else self.port
        except (ValueError, IndexError):
            return None
        return (pid, port) if pid_alive(pid) else None

    def running_pid(self) -> int | None:
        found = self.running()
        return found[0] if found else None

    @property
    def registry(self) -> Path:
        """One file per server kg started (any data folder), so `kg neo4j status` can list them."""
        return self.cache_dir.parent / "servers"

    def start(self, *, timeout: float = 180, say=print) -> str:
        found = self.running()
        if found is not None:
            pid, port = found
            note = f"; not on {self.port}: its URI is the one below" if port != self.port else ""
            say(f"Neo4j is already running on this data folder (pid {pid}, port {port}, data {self.data_dir}){note}")
            return f"bolt://127.0.0.1:{port}"
        if _answers(self.port):
            raise ServerError(f"port {self.port} is already taken by another program; choose another with --port")
        lib = self.fetch(say=say)
        java = _need("java", "run Neo4j")
        _private(self.data_dir)
        classpath = f"{self.cache_dir / 'classes'}{os.pathsep}{lib}/*"
        password = self._ensure_password(java, classpath, say)
        cmd = [
            java,
            *_JVM_FLAGS,
            "-cp",
            classpath,
            "kg.Neo4jServer",
            "--port",
            str(self.port),
            "--data",
            str(self.data_dir.resolve() / "db"),
        ]
        with self.log_file.open("ab") as log:
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        self.pid_file.write_text(f"{proc.pid} {self.port}\n")
        self.registry.mkdir(parents=True, exist_ok=True)
        (self.registry / str(proc.pid)).write_text(f"{self.port} {self.data_dir.resolve()}\n")
        say(f"starting Neo4j {NEO4J_VERSION} (pid {proc.pid}, log {self.log_file})")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                self.pid_file.unlink(missing_ok=True)
                tail = self.log_file.read_text(errors="replace").strip().splitlines()[-20:]
                raise ServerError("Neo4j exited while starting:\n" + "\n".join(tail))
            if _answers(self.port) and self._bolt_ready(password):
                return self.uri
            time.sleep(0.5)
        self.stop(say=lambda *_: None)
        raise ServerError(f"Neo4j did not answer on port {self.port} within {timeout:.0f}s; see {self.log_file}")

    def _bolt_ready(self, password: str) -> bool:
        from neo4j import GraphDatabase
        from neo4j.exceptions import Neo4jError, ServiceUnavailable

        try:
            with GraphDatabase.driver(
                self.uri, auth=(USERNAME, password), connection_timeout=2, notifications_min_severity="OFF"
            ) as driver:
                driver.verify_connectivity()
                driver.execute_query("RETURN 1")
            return True
        except (ServiceUnavailable, Neo4jError, OSError):
            return False

    def stop(self, *, timeout: float = 60, say=print) -> bool:
        """Stop the server; False when it was not running."""
        pid = self.running_pid()
        if pid is None:
            self.pid_file.unlink(missing_ok=True)
            others = [s for s in running_servers(self.registry) if s[2] != self.data_dir.resolve()]
            hint = (
                "; running elsewhere: " + ", ".join(f"port {p} (data {d}; stop it with --data {d})" for _, p, d in others)
                if others
                else ""
            )
            say(f"Neo4j is not running on data folder {self.data_dir}{hint}")
            return False
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        if pid_alive(pid):
            os.kill(pid, signal.SIGKILL)
        self.pid_file.unlink(missing_ok=True)
        (self.registry / str(pid)).unlink(missing_ok=True)
        say(f"stopped Neo4j (pid {pid}, data {self.data_dir})")
        return True


def running_servers(registry: Path) -> list[tuple[int, int, Path]]:
    """(pid, port, data folder) of every server kg started that still runs; stale entries are dropped."""
    found = []
    for entry in sorted(registry.glob("*")) if registry.is_dir() else ():
        try:
            pid = int(entry.name)
            port, data = entry.read_text().strip().split(" ", 1)
        except (ValueError, OSError):
            continue
        if pid_alive(pid):
            found.append((pid, int(port), Path(data)))
        else:
            entry.unlink(missing_ok=True)
    return found


def local_auth(uri: str | None, registry: Path) -> tuple[str, str] | None:
    """(user, password) of the server kg started that listens at this loopback URI, if one does.

    >>> local_auth("bolt://db.example.org:7687", Path("no-such-registry")) is None
    True
    """
    if not uri:
        return None
    parts = urlsplit(uri)
    if parts.hostname not in _LOOPBACK:
        return None
    port = parts.port or 7687
    for _, running_port, data in running_servers(registry):
        if running_port == port:
            try:
                return USERNAME, (data / PASSWORD_FILE).read_text().strip()
            except OSError:
                return None
    return None


def neo4j_auth(settings: Settings) -> tuple[str, str]:
    """NEO4J_USERNAME/NEO4J_PASSWORD when the password is set; else the generated password of the server
    `kg neo4j start` runs at NEO4J_URI; else Neo4j's default."""
    if settings.neo4j_password is not None:
        return settings.neo4j_username, settings.neo4j_password
    return local_auth(settings.neo4j_uri, settings.neo4j_cache_dir / "servers") or (settings.neo4j_username, "neo4j")
