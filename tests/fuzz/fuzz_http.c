/* libFuzzer target: arbitrary bytes as what a client sends to the HTTP server
 * (src/server/http_conn.h). The first byte picks how the bytes are cut into writes (one
 * write, small pieces, large pieces) and the reader's buffer size (small reads go through
 * the connection's input buffer, large ones receive straight into the reader's buffer and
 * remove the chunked framing in place); the rest is written to one end of a socket pair by
 * a thread and read as requests and bodies on the other, as a server connection reads. */
#include "base/err.h"
#include "server/http_conn.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

typedef struct {
    int fd;
    const uint8_t *p;
    size_t n, piece;
} writer;

static void *write_all(void *arg)
{
    writer *w = arg;
    for (size_t off = 0; off < w->n;) {
        size_t k = w->n - off < w->piece ? w->n - off : w->piece;
        ssize_t r = send(w->fd, w->p + off, k, MSG_NOSIGNAL);
        if (r <= 0)
            break; /* the reader gave up and closed */
        off += (size_t)r;
    }
    shutdown(w->fd, SHUT_WR);
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 1)
        return 0;
    static const size_t pieces[] = {1 << 20, 1, 7, 4096};
    static const size_t caps[] = {1 << 20, 100, 8192, 65536};
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        return 0;
    writer w = {.fd = sv[1], .p = d + 1, .n = n - 1, .piece = pieces[d[0] & 3]};
    pthread_t th;
    pthread_create(&th, NULL, write_all, &w);
    http_conn c;
    http_conn_init(&c, sv[0]);
    c.recv_timeout_ms = 2000;
    size_t cap = caps[(d[0] >> 2) & 3];
    char *body = malloc(cap);
    for (int requests = 0; requests < 8 && !c.broken; requests++) {
        srv_request rq;
        int status = 0;
        if (srv_read_request(&c, &rq, &status)) {
            srv_request_free(&rq); /* as the server does: a failed head may hold parts */
            break;
        }
        instream *is = http_body_stream(&rq);
        size_t got = 1;
        while (got > 0 && is->read(is, body, cap, &got) == 0)
            ;
        is->close(is);
        srv_request_free(&rq);
    }
    err_clear();
    free(body);
    close(sv[0]); /* before the join: a writer blocked on a full socket then fails */
    pthread_join(th, NULL);
    close(sv[1]);
    http_conn_free(&c);
    return 0;
}
