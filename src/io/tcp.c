/* TCP client connections (see tcp.h). */
#include "io/tcp.h"

#include "base/err.h"
#include "base/mem.h"

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int connect_one(const struct addrinfo *ai, int timeout_ms, int *fd, int *why)
{
    int s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (s < 0) {
        *why = errno;
        return -1;
    }
    int flags = fcntl(s, F_GETFL, 0);
    fcntl(s, F_SETFL, flags | O_NONBLOCK);
    int rc = connect(s, ai->ai_addr, ai->ai_addrlen);
    if (rc < 0 && errno != EINPROGRESS) {
        *why = errno;
        close(s);
        return -1;
    }
    if (rc < 0) {
        struct pollfd p = {.fd = s, .events = POLLOUT};
        int n;
        do
            n = poll(&p, 1, timeout_ms);
        while (n < 0 && errno == EINTR);
        if (n == 0) {
            *why = ETIMEDOUT;
            close(s);
            return -1;
        }
        int e = 0;
        socklen_t len = sizeof e;
        getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &len);
        if (n < 0 || e) {
            *why = n < 0 ? errno : e;
            close(s);
            return -1;
        }
    }
    fcntl(s, F_SETFL, flags);
    int one = 1;
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    *fd = s;
    return 0;
}

int tcp_connect(const char *host, int port, int timeout_ms, int *fd)
{
    *fd = -1;
    char ports[16];
    snprintf(ports, sizeof ports, "%d", port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
    int g = getaddrinfo(host, ports, &hints, &res);
    if (g)
        return err_set(ERR_DNS_ERROR, "Cannot resolve the host %s: %s", host, gai_strerror(g));
    int why = 0;
    for (const struct addrinfo *ai = res; ai; ai = ai->ai_next)
        if (connect_one(ai, timeout_ms, fd, &why) == 0) {
            freeaddrinfo(res);
            return 0;
        }
    freeaddrinfo(res);
    if (why == ETIMEDOUT)
        return err_set(ERR_SOCKET_TIMEOUT, "Timeout exceeded while connecting to %s:%d (%d ms)", host, port,
                       timeout_ms);
    return err_set(ERR_NETWORK_ERROR, "Cannot connect to %s:%d: %s", host, port, strerror(why));
}

int tcp_send_all(int fd, const void *p, size_t n, int timeout_ms, const char *peer)
{
    const char *b = p;
    size_t off = 0;
    bool wait = false; /* poll only when the socket's buffer is full (see tcp_read) */
    while (off < n) {
        if (wait) {
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            int r = poll(&pfd, 1, timeout_ms);
            if (r < 0 && errno == EINTR)
                continue;
            if (r == 0)
                return err_set(ERR_SOCKET_TIMEOUT, "Timeout exceeded while writing to %s (%d ms)", peer, timeout_ms);
        }
        ssize_t w = send(fd, b + off, n - off, MSG_NOSIGNAL | MSG_DONTWAIT);
        wait = w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        if (w < 0 && (errno == EINTR || wait))
            continue;
        if (w <= 0)
            return err_set(ERR_NETWORK_ERROR, "Cannot write to %s: %s", peer, w < 0 ? strerror(errno) : "closed");
        off += (size_t)w;
    }
    return 0;
}

typedef struct tcp_stream {
    instream base;
    int fd;
    int timeout_ms;
    char peer[128];
} tcp_stream;

static int tcp_read(instream *s, void *dst, size_t cap, size_t *got)
{
    tcp_stream *t = (tcp_stream *)s;
    *got = 0;
    /* recv first, poll (for the timeout) only when nothing has arrived yet: while a server
     * streams a large result the data is usually there, and a poll per read would double
     * the system calls. */
    bool wait = false;
    for (;;) {
        if (wait) {
            struct pollfd pfd = {.fd = t->fd, .events = POLLIN};
            int n = poll(&pfd, 1, t->timeout_ms);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return err_set(ERR_NETWORK_ERROR, "poll on the connection to %s failed: %s", t->peer,
                               strerror(errno));
            if (n == 0)
                return err_set(ERR_SOCKET_TIMEOUT, "Timeout exceeded while reading from %s (%d ms)", t->peer,
                               t->timeout_ms);
        }
        ssize_t r = recv(t->fd, dst, cap, MSG_DONTWAIT);
        wait = r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        if (r < 0 && (errno == EINTR || wait))
            continue;
        if (r < 0)
            return err_set(ERR_NETWORK_ERROR, "Cannot read from %s: %s", t->peer, strerror(errno));
        *got = (size_t)r;
        s->offset += (uint64_t)r;
        return 0;
    }
}

static void tcp_close(instream *s) { free(s); }

instream *tcp_instream(int fd, const char *peer, int timeout_ms)
{
    tcp_stream *t = xcalloc(1, sizeof *t);
    t->base.read = tcp_read;
    t->base.close = tcp_close;
    t->fd = fd;
    t->timeout_ms = timeout_ms;
    snprintf(t->peer, sizeof t->peer, "%s", peer);
    t->base.name = t->peer;
    return &t->base;
}

void tcp_instream_set_timeout(instream *s, int timeout_ms) { ((tcp_stream *)s)->timeout_ms = timeout_ms; }
