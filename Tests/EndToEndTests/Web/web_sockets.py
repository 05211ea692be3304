#!/usr/bin/env python3
"""Raw sockets against tonenode's live page (`run --web`), for WebPageTests.swift.

Usage: web_sockets.py HOST PORT CHECK...   one JSON line per check on stdout.
  refusals   bad Host, cross-site Origin, unknown path: refused, nothing upgraded
  token T    a socket without the token, with a wrong one, with T
  abuse      oversized, binary, malformed and flooding messages: each closes its socket
  load N S   N sockets at once, each reading for S seconds, then each closed abruptly (RST)
Every read is bounded by a timeout; nothing waits forever.
"""
import base64
import json
import os
import socket
import struct
import sys
import time

TIMEOUT_S = 5


def say(**fields):
    print(json.dumps(fields), flush=True)


def request(host, port, path, host_header, origin=None, upgrade=True):
    sock = socket.create_connection((host, port), timeout=TIMEOUT_S)
    lines = [f"GET {path} HTTP/1.1", f"Host: {host_header}"]
    if upgrade:
        lines += ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                  "Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)).decode()]
    if origin:
        lines.append(f"Origin: {origin}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return sock, status, head.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in head else b""


def frame(opcode, payload):
    mask = os.urandom(4)
    header = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        header += bytes([0x80 | n])
    elif n < 65536:
        header += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        header += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_until_close(sock, rest=b""):
    """Reads frames until a close frame or the end; returns (close code or None, text frames seen)."""
    data, texts = rest, 0
    deadline = time.monotonic() + TIMEOUT_S
    while time.monotonic() < deadline:
        while len(data) >= 2:
            opcode, n, at = data[0] & 0x0F, data[1] & 0x7F, 2
            if n == 126:
                if len(data) < 4:
                    break
                n, at = struct.unpack(">H", data[2:4])[0], 4
            elif n == 127:
                if len(data) < 10:
                    break
                n, at = struct.unpack(">Q", data[2:10])[0], 10
            if len(data) < at + n:
                break
            payload, data = data[at:at + n], data[at + n:]
            if opcode == 8:
                return (struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005), texts
            texts += opcode == 1
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return None, texts
        except ConnectionResetError:
            return "reset", texts
        if not chunk:
            return "eof", texts
        data += chunk
    return None, texts


def refusals(host, port):
    good = f"127.0.0.1:{port}"
    for name, path, host_header, origin, upgrade in [
            ("rebinding host", "/ws", f"evil.example:{port}", None, True),
            ("rebinding host page", "/", f"evil.example:{port}", None, False),
            ("cross-site origin", "/ws", good, "http://evil.example", True),
            ("other file", "/etc/passwd", good, None, False),
            ("page", "/", good, None, False),
            ("socket", "/ws", good, f"http://{good}", True)]:
        sock, status, _ = request(host, port, path, host_header, origin, upgrade)
        sock.close()
        say(check=name, status=status)


def token(host, port, secret):
    good = f"127.0.0.1:{port}"
    for name, path in [("no token", "/ws"), ("wrong token", "/ws?token=" + "x" * len(secret)),
                       ("right token", "/ws?token=" + secret)]:
        sock, status, _ = request(host, port, path, good)
        sock.close()
        say(check=name, status=status)


def abuse(host, port):
    good = f"127.0.0.1:{port}"
    for name, frames in [
            ("oversized", [frame(1, b"control frequency " + b"4" * 4000)]),
            ("binary", [frame(2, b"\x00\x01")]),
            ("malformed", [frame(1, b"{\"hello\": 1}")]),
            ("flood", [frame(1, b"control mute off") for _ in range(200)])]:
        sock, status, rest = request(host, port, "/ws", good)
        sock.sendall(b"".join(frames))
        code, _ = read_until_close(sock, rest)
        sock.close()
        say(check=name, status=status, close=code)


def load(host, port, count, seconds):
    good = f"127.0.0.1:{port}"
    sockets = [request(host, port, "/ws", good) for _ in range(count)]
    upgraded = sum(1 for _, status, _ in sockets if status == 101)
    received = [0] * count
    deadline = time.monotonic() + seconds
    for sock, _, _ in sockets:
        sock.settimeout(0.05)
    while time.monotonic() < deadline:
        for index, (sock, _, _) in enumerate(sockets):
            try:
                received[index] += len(sock.recv(65536))
            except (socket.timeout, BlockingIOError):
                pass
    for sock, _, _ in sockets:
        # SO_LINGER 0: close sends RST, no close frame: the abrupt end of a killed tab.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    say(check="load", upgraded=upgraded, receiving=sum(1 for r in received if r > 0))


def main():
    host, port, checks = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    while checks:
        check = checks.pop(0)
        if check == "refusals":
            refusals(host, port)
        elif check == "token":
            token(host, port, checks.pop(0))
        elif check == "abuse":
            abuse(host, port)
        elif check == "load":
            load(host, port, int(checks.pop(0)), float(checks.pop(0)))


if __name__ == "__main__":
    main()
