#!/usr/bin/env python3
"""Hostile input against `mdsim serve --http` (tests/scripts/test_http_hostile.sh).

http_hostile.py HOST PORT: a logged-in console stays open on MDS1 while
this sends oversized request lines and headers, an oversized login form,
a flood of idle connections, WebSockets without a session, with a forged
cookie or from another site, a WebSocket frame with a huge length, a
fragmented and an oversized message, bad UTF-8, and an operator's login
(its switches and role). After each, the console
still answers and the server still serves. Only the socket module: what a
browser would never send. Exit 1 on the first failure.
"""
import base64
import os
import re
import socket
import struct
import sys
import time

HOST, PORT = sys.argv[1], int(sys.argv[2])


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def connect(timeout=10):
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    return s


def read_all(s, limit=1 << 20):
    data = b""
    try:
        while len(data) < limit:
            b = s.recv(65536)
            if not b:
                break
            data += b
    except (socket.timeout, ConnectionResetError):
        pass
    return data


def http(raw, timeout=15):
    s = connect(timeout)
    try:
        s.sendall(raw)
    except (BrokenPipeError, ConnectionResetError):
        pass
    data = read_all(s)
    s.close()
    return data


def status(resp):
    m = re.match(rb"HTTP/1\.[01] (\d+)", resp)
    return int(m.group(1)) if m else None


def login(user=b"admin", password=b"admin", expect_json=None):
    body = b"user=%s&password=%s" % (user, password)
    resp = http(b"POST /api/login HTTP/1.1\r\nHost: %s:%d\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (HOST.encode(), PORT, len(body), body), timeout=60)
    m = re.search(rb"Set-Cookie: mdsim_session=([0-9a-f]{32});", resp)
    if status(resp) != 200 or not m:
        fail("login: %r" % resp[:300])
    if expect_json and expect_json not in resp:
        fail("login of %s answered %r" % (user, resp.split(b"\r\n\r\n", 1)[-1]))
    return m.group(1).decode()


def serves(what):
    """The server still answers a plain request, within a bound."""
    end = time.monotonic() + 40
    while time.monotonic() < end:
        try:
            if status(http(b"GET /api/session HTTP/1.1\r\nHost: x\r\n\r\n", timeout=5)) == 401:
                return
        except OSError:
            pass
        time.sleep(0.2)
    fail("the server stopped answering after " + what)


class WS:
    def __init__(self, cookie, path="/ws/console?sw=0", origin=None, expect=True):
        self.s = connect()
        key = base64.b64encode(os.urandom(16)).decode()
        hdr = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n" % (path, HOST, PORT, key))
        if cookie:
            hdr += "Cookie: mdsim_session=%s\r\n" % cookie
        if origin:
            hdr += "Origin: %s\r\n" % origin
        self.s.sendall((hdr + "\r\n").encode())
        resp = b""
        while b"\r\n\r\n" not in resp:
            try:
                b = self.s.recv(4096)
            except (socket.timeout, ConnectionResetError):
                b = b""
            if not b:
                break
            resp += b
        self.ok = resp.startswith(b"HTTP/1.1 101")
        self.buf = resp.split(b"\r\n\r\n", 1)[1] if self.ok else b""
        self.text = b""
        if expect and not self.ok:
            fail("WebSocket %s refused: %r" % (path, resp[:200]))

    def frame(self, opcode, payload, fin=True, length=None):
        n = len(payload) if length is None else length
        head = bytes([(0x80 if fin else 0) | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def keys(self, data):
        self.frame(2, data)

    def parse(self):
        """Takes the whole frames read so far; False after a close frame."""
        while len(self.buf) >= 2:
            n, off = self.buf[1] & 127, 2
            if n == 126:
                if len(self.buf) < 4:
                    break
                n, off = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                if len(self.buf) < 10:
                    break
                n, off = struct.unpack(">Q", self.buf[2:10])[0], 10
            if len(self.buf) < off + n:
                break
            op = self.buf[0] & 15
            if op == 8:
                return False
            if op == 2:
                self.text += self.buf[off:off + n]
            self.buf = self.buf[off + n:]
        return True

    def pump(self, timeout):
        """Reads frames for up to timeout; False when the server closed."""
        if not self.parse():
            return False
        self.s.settimeout(timeout)
        try:
            b = self.s.recv(65536)
        except socket.timeout:
            return True
        except ConnectionResetError:
            return False
        if not b:
            return False
        self.buf += b
        return self.parse()

    def until(self, pattern, what, timeout=30):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            alive = self.pump(0.2)
            if re.search(pattern, self.text):
                return
            if not alive:
                break
        fail("the console did not show %s: %r" % (what, self.text[-300:]))

    def closed(self, timeout=20):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.pump(0.2):
                return True
        return False


def answers(con, what):
    """The console still answers a command."""
    con.text = b""
    con.keys(b"show switchname\r")
    con.until(rb"show switchname\r\nMDS1\r\nMDS1# ", "show switchname's answer after " + what)


def main():
    cookie = login()
    con = WS(cookie)
    con.until(rb"MDS1# $", "its prompt")
    print("ok: a console logged in over a WebSocket")

    r = http(b"GET /" + b"A" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    if status(r) == 200:
        fail("a 100 KB request line was served")
    r = http(b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 200) for i in range(200)) +
             b"\r\n")
    if status(r) == 200:
        fail("40 KB of headers were served")
    serves("oversized request lines and headers")
    answers(con, "oversized requests")
    print("ok: a 100 KB request line and 40 KB of headers are refused")

    r = http(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n" + b"u" * 2000)
    if status(r) != 413:
        fail("an oversized login form got %r" % r[:100])
    r = http(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 7\r\n\r\nuser=\xff\xfe")
    if status(r) not in (400, 403):
        fail("a login form without a password got %r" % r[:100])
    print("ok: a login form of 100000 bytes gets 413, a broken one 400")

    flood = []
    for _ in range(150):
        try:
            s = socket.create_connection((HOST, PORT), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\n")  # and never the end of the headers
            flood.append(s)
        except OSError:
            break
    answers(con, "150 idle connections")
    for s in flood:
        s.close()
    serves("a flood of idle connections")
    print("ok: %d idle connections: the console answers on, the server serves after" % len(flood))

    for what, ck, origin in (("no cookie", None, None), ("a forged cookie", "0" * 32, None),
                             ("another site's page", cookie, "http://evil.example")):
        w = WS(ck, origin=origin, expect=False)
        if w.ok:
            fail("a console WebSocket with %s was accepted" % what)
        w.s.close()
    w = WS(None, path="/ws/live", expect=False)
    if w.ok:
        fail("the live WebSocket without a session was accepted")
    w = WS(cookie, path="/ws/console?sw=7", expect=False)
    if w.ok:
        fail("a console of a switch the lab does not have was accepted")
    if status(http(b"GET /api/topology HTTP/1.1\r\nHost: x\r\n\r\n")) != 401:
        fail("the topology without a session")
    answers(con, "WebSockets without a session")
    print("ok: WebSockets without a session, with a forged cookie, from another site or to no switch are refused")

    other = WS(cookie)
    other.until(rb"MDS1# $", "the second console's prompt")
    other.frame(2, b"", length=1 << 62)  # a length no memory holds, then nothing
    if not other.closed():
        fail("a frame of 2^62 bytes did not close its WebSocket")
    answers(con, "a frame of 2^62 bytes on another console")
    other = WS(cookie)
    other.until(rb"MDS1# $", "the third console's prompt")
    other.frame(2, b"x" * 5000)  # above the 4096 bytes of one message of keys
    if not other.closed():
        fail("a 5000-byte message did not close its WebSocket")
    other = WS(cookie)
    other.until(rb"MDS1# $", "the fourth console's prompt")
    other.frame(2, b"show ", fin=False)
    if not other.closed():
        fail("a fragmented message did not close its WebSocket")
    answers(con, "oversized and fragmented messages")
    serves("hostile frames")
    print("ok: a frame of 2^62 bytes, a message of 5000 bytes and a fragmented one each close their own console")

    con.frame(1, b"\xff\xfe\xc0\xaf size 1 1")  # bad UTF-8 on the control channel: ignored
    con.keys(b"\xc0\xaf\xff\xfe\x80\r")            # and in keys: a line the switch refuses
    con.until(rb"% Invalid", "the refusal of a line of bad UTF-8")
    answers(con, "bad UTF-8")
    print("ok: bad UTF-8 in control messages is ignored, in keys refused as a line")

    # at most 32 consoles in all: the 33rd is refused, and a place freed is taken again
    many = [WS(cookie) for _ in range(31)]  # with con, 32
    for w in many:
        w.until(rb"MDS1# $", "a prompt among 32 consoles")
    w = WS(cookie, expect=False)
    if w.ok:
        fail("a 33rd console was accepted")
    many.pop().s.close()
    again = None
    for _ in range(100):  # the place comes back once serve saw the close
        again = WS(cookie, expect=False)
        if again.ok:
            break
        time.sleep(0.1)
    if not again.ok:
        fail("a console's place did not come back after it closed")
    for w in many + [again]:
        w.s.close()
    answers(con, "32 consoles")
    print("ok: 32 consoles at most: the 33rd is refused, a freed place is taken again")

    # roles: an operator made on MDS1 only opens MDS1, and cannot configure it
    con.text = b""
    con.keys(b"configure terminal\rusername op password Oper4tor9 role network-operator\rend\r")
    con.until(rb"end\r\nMDS1# $", "the operator's creation")
    op = login(b"op", b"Oper4tor9", b'"switches": [{"index": 0, "name": "MDS1", "role": "network-operator"}]')
    w = WS(op, path="/ws/console?sw=1", expect=False)
    if w.ok:
        fail("the operator of MDS1 opened MDS2, where no such user exists")
    opc = WS(op)
    opc.until(rb"MDS1# $", "the operator's prompt")
    opc.keys(b"configure terminal\r")
    opc.until(rb"% Permission denied", "the operator refused configuration")
    opc.s.close()
    print("ok: an operator of MDS1 alone opens MDS1 only, as network-operator: configure is refused")

    # the login throttle of telnet and SSH: each failure of a name from an
    # address waits longer before its answer, 1 s doubling (docs/login-throttle.md)
    took = []
    for _ in range(3):
        t0 = time.monotonic()
        body = b"user=mallory&password=guess1"
        r = http(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body), 60)
        took.append(time.monotonic() - t0)
        if status(r) != 403 or b"Login incorrect" not in r:
            fail("a wrong password got %r" % r[:120])
    if took[0] < 0.9 or took[2] < 3.5:
        fail("failed logins were not slowed as telnet's: %s s" % ", ".join("%.1f" % t for t in took))
    login()
    print("ok: failed logins answer Login incorrect after %s s, as telnet's; admin logs in after" %
          ", ".join("%.1f" % t for t in took))

    con.keys(b"exit\r")
    if not con.closed():
        fail("exit did not close the console")
    print("ok: exit closes the console's WebSocket")


if __name__ == "__main__":
    main()
