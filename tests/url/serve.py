#!/usr/bin/env python3
"""A small HTTP server for the url() and s3() tests: serves a directory with HEAD, GET,
single byte ranges (206 + Content-Range), ETag and Last-Modified, plus just enough of
S3's ListObjectsV2 (GET /bucket?list-type=2&prefix=...) for s3(url, NOSIGN) globs, and
GET /__replace?src=A&dst=B, which copies file A over B (a changed object, new ETag).
Every request is appended to a log file ("METHOD path range") so that tests can count
them. --no-ranges makes it ignore Range headers (like python3 -m http.server).

usage: serve.py ROOT LOGFILE [--no-ranges]   (prints the port, then serves forever)"""
import email.utils
import hashlib
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

ROOT = os.path.abspath(sys.argv[1])
LOG = sys.argv[2]
RANGES = '--no-ranges' not in sys.argv
log_lock = threading.Lock()


def etag_of(st):
    return '"%s"' % hashlib.md5(('%d-%d' % (st.st_size, st.st_mtime_ns)).encode()).hexdigest()


class H(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, *a):
        pass

    def note(self):
        with log_lock, open(LOG, 'a') as f:
            f.write('%s %s %s\n' % (self.command, self.path, self.headers.get('Range', '-')))

    def fail(self, code):
        body = b'not found\n'
        self.send_response(code)
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        if self.command != 'HEAD':
            self.wfile.write(body)

    def list_objects(self, bucket, q):
        prefix = q.get('prefix', [''])[0]
        base = os.path.join(ROOT, bucket)
        keys = []
        for d, _, files in os.walk(base):
            for n in files:
                k = os.path.relpath(os.path.join(d, n), base)
                if k.startswith(prefix):
                    keys.append(k)
        keys.sort()
        parts = ['<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>%s</Name><Prefix>%s</Prefix>'
                 '<KeyCount>%d</KeyCount><IsTruncated>false</IsTruncated>' % (escape(bucket), escape(prefix), len(keys))]
        for k in keys:
            st = os.stat(os.path.join(base, k))
            parts.append('<Contents><Key>%s</Key><Size>%d</Size><ETag>%s</ETag></Contents>'
                         % (escape(k), st.st_size, escape(etag_of(st))))
        parts.append('</ListBucketResult>')
        body = ''.join(parts).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/xml')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def serve(self):
        self.note()
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query)
        rel = urllib.parse.unquote(u.path).lstrip('/')
        if 'list-type' in q:
            return self.list_objects(rel.rstrip('/'), q)
        if rel == '__replace':  # copies src over dst, so that a test can change an object
            src = os.path.join(ROOT, q['src'][0])
            dst = os.path.join(ROOT, q['dst'][0])
            with open(src, 'rb') as a, open(dst + '.tmp', 'wb') as b:
                b.write(a.read())
            os.replace(dst + '.tmp', dst)
            body = b'ok\n'
            self.send_response(200)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            if self.command != 'HEAD':
                self.wfile.write(body)
            return
        p = os.path.normpath(os.path.join(ROOT, rel))
        if not p.startswith(ROOT) or not os.path.isfile(p):
            return self.fail(404)
        st = os.stat(p)
        size = st.st_size
        start, end, status = 0, size - 1, 200
        rng = self.headers.get('Range')
        if RANGES and rng and rng.startswith('bytes=') and ',' not in rng:
            a, _, b = rng[6:].partition('-')
            start = int(a) if a else max(0, size - int(b))
            end = min(int(b), size - 1) if a and b else size - 1
            if start >= size:
                self.send_response(416)
                self.send_header('Content-Range', 'bytes */%d' % size)
                self.send_header('Content-Length', '0')
                self.end_headers()
                return
            status = 206
        self.send_response(status)
        self.send_header('Content-Length', str(max(0, end - start + 1)))
        self.send_header('ETag', etag_of(st))
        self.send_header('Last-Modified', email.utils.formatdate(st.st_mtime, usegmt=True))
        if RANGES:
            self.send_header('Accept-Ranges', 'bytes')
        if status == 206:
            self.send_header('Content-Range', 'bytes %d-%d/%d' % (start, end, size))
        self.end_headers()
        if self.command == 'HEAD':
            return
        with open(p, 'rb') as f:
            f.seek(start)
            left = end - start + 1
            while left > 0:
                chunk = f.read(min(left, 1 << 16))
                if not chunk:
                    break
                try:
                    self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    return
                left -= len(chunk)

    do_GET = serve
    do_HEAD = serve


srv = ThreadingHTTPServer(('127.0.0.1', 0), H)
srv.daemon_threads = True
print(srv.server_address[1], flush=True)
srv.serve_forever()
