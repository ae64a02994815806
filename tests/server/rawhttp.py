#!/usr/bin/env python3
"""Sends raw bytes to the server and prints the status line of the answer (or 'closed').

  rawhttp.py PORT HEX_BYTES [DELAY_SECONDS_BETWEEN_BYTES [HOLD_SECONDS]]

Used by run-server-tests.sh for what curl cannot send: malformed requests, a head sent
one byte at a time, a body cut short. Every wait is bounded."""
import socket
import sys
import time

port = int(sys.argv[1])
data = bytes.fromhex(sys.argv[2])
delay = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
hold = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0
s = socket.create_connection(("127.0.0.1", port), timeout=20)
try:
    if delay > 0:
        for b in data:
            s.sendall(bytes([b]))
            time.sleep(delay)
    else:
        s.sendall(data)
    if hold > 0:
        time.sleep(hold)
        s.close()
        print("closed")
        sys.exit(0)
    answer = b""
    while b"\r\n" not in answer:
        chunk = s.recv(4096)
        if not chunk:
            break
        answer += chunk
    line = answer.split(b"\r\n", 1)[0].decode("latin-1")
    print(line if line else "closed")
except (BrokenPipeError, ConnectionResetError):
    print("closed")
except socket.timeout:
    print("timeout")
