#!/usr/bin/env python3
"""Sends INSERT bodies in chunked transfer encoding with awkward framing and prints what the
server answered, one line per request; the caller compares with the expected sums.

  chunked.py PORT TABLE SEED

Three requests go over one keep-alive connection, each inserting the numbers 1..N as TSV:
chunks of random sizes (1 byte … 200 KiB), size lines with extensions and upper-case hex,
trailers after the last chunk, and the bytes written to the socket in random pieces with
short pauses, so that the server sees a CRLF, a size line or the last chunk split across
receives and inside one large receive. The third request is sent right behind the second
(pipelined). Every wait is bounded."""
import random
import socket
import sys
import time

port, table, seed = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
rng = random.Random(seed)


def body(n):
    return "".join(f"{i}\n" for i in range(1, n + 1)).encode()


def chunked(data):
    out, i = [], 0
    while i < len(data):
        size = rng.choice([1, 2, 3, 7, 100, 4093, 8192, 65536, 200000, rng.randint(1, 300000)])
        part = data[i:i + size]
        i += len(part)
        head = f"{len(part):X}" if rng.random() < 0.5 else f"{len(part):x}"
        if rng.random() < 0.1:
            head += ";ext=1"
        out.append(head.encode() + b"\r\n" + part + b"\r\n")
    out.append(b"0\r\n" + (b"X-Trailer: 1\r\n" if rng.random() < 0.5 else b"") + b"\r\n")
    return b"".join(out)


def request(n):
    payload = chunked(body(n))
    head = (f"POST /?query=INSERT%20INTO%20{table}%20FORMAT%20TSV HTTP/1.1\r\n"
            "Host: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n").encode()
    return head + payload


def send_pieces(s, data):
    i = 0
    while i < len(data):
        k = rng.choice([1, 2, 5, 1000, 70000, 300000, 1 << 20])
        s.sendall(data[i:i + k])
        i += k
        if rng.random() < 0.05:
            time.sleep(0.002)


def read_answer(s, buf):
    """Reads one response (Content-Length or chunked) and returns (status, rest of buffer)."""
    while b"\r\n\r\n" not in buf:
        more = s.recv(65536)
        if not more:
            return "closed", b""
        buf += more
    head, buf = buf.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = lines[0]
    headers = {l.split(":", 1)[0].lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
    if "content-length" in headers:
        need = int(headers["content-length"])
        while len(buf) < need:
            buf += s.recv(65536)
        return status, buf[need:]
    if headers.get("transfer-encoding") == "chunked":
        while not buf.startswith(b"0\r\n\r\n"):
            while b"\r\n" not in buf:
                buf += s.recv(65536)
            size = int(buf.split(b"\r\n", 1)[0], 16)
            if size == 0:
                while b"\r\n\r\n" not in buf:
                    buf += s.recv(65536)
                break
            line = len(buf.split(b"\r\n", 1)[0]) + 2
            while len(buf) < line + size + 2:
                buf += s.recv(65536)
            buf = buf[line + size + 2:]
        return status, buf.split(b"\r\n\r\n", 1)[1]
    return status, buf


s = socket.create_connection(("127.0.0.1", port), timeout=30)
sizes = [300000, 5000, 20000]
send_pieces(s, request(sizes[0]))
status, rest = read_answer(s, b"")
print(status)
send_pieces(s, request(sizes[1]) + request(sizes[2]))
for _ in range(2):
    status, rest = read_answer(s, rest)
    print(status)
s.close()
