/* TCP client connections: connect with a timeout, send everything, and an instream that
 * reads with a timeout (the native protocol's client, storage/native_client.h).
 *
 * Ownership: tcp_connect's descriptor belongs to the caller (close it); the instream
 * borrows the descriptor and is freed by its close(). Thread-safety: one connection, one
 * thread (send and receive may be on two threads). Errors: -1 with err_set —
 * ERR_DNS_ERROR (the host does not resolve), ERR_NETWORK_ERROR (refused, reset),
 * ERR_SOCKET_TIMEOUT (no connection or no bytes in time), each naming host:port. */
#ifndef SHALE_IO_TCP_H
#define SHALE_IO_TCP_H

#include "io/stream.h"

#include <stddef.h>

/* Connects to host:port (every address the name resolves to, in turn), each attempt
 * bounded by timeout_ms; TCP_NODELAY on the socket. */
int tcp_connect(const char *host, int port, int timeout_ms, int *fd);
/* Sends n bytes, waiting at most timeout_ms for the socket to take each part. */
int tcp_send_all(int fd, const void *p, size_t n, int timeout_ms, const char *peer);
/* Reads from fd; a read that gets no byte in timeout_ms fails with ERR_SOCKET_TIMEOUT.
 * peer names the connection in messages (copied). */
instream *tcp_instream(int fd, const char *peer, int timeout_ms);
/* Changes the receive timeout of a tcp_instream. */
void tcp_instream_set_timeout(instream *s, int timeout_ms);

#endif
