/* HTTP connections served by a pool of threads, not a thread each.
 *
 * Between requests a keep-alive connection is "parked": its socket waits in one epoll set
 * and no thread waits for it. A pool worker takes the next connection that has bytes to
 * read, serves its requests until it would wait again, parks it and takes the next. With
 * many clients and two cores this removes a thread wake-up per request (16 threads taking
 * turns cost a third of the machine in context switches) and most of an idle connection's
 * memory (its thread's stack).
 *
 * A query can run for hours on its worker, so the pool keeps a worker waiting: a worker
 * that takes a connection while no other is waiting starts another at once while there
 * are fewer than cores + 1, and beyond that a monitor thread adds one when every worker has
 * stayed busy for 2 ms (up to max_connections); idle workers beyond the second leave after
 * a second without work. A slow or stalled client therefore never blocks the others for
 * more than a few milliseconds, and under a load of short queries the pool stays near the
 * core count, so a worker usually finds the next request ready instead of sleeping (a
 * worker per connection made every request wake a sleeping thread).
 *
 * The keep-alive timeout and shutdown act on parked connections by shutting their
 * sockets down (http_pool_expire): the worker that then takes the connection reads the
 * end of the stream and closes it, so only one thread ever touches a connection.
 *
 * Thread-safety: every function may be called from any thread. Errors: http_pool_start
 * returns -1 with err_set; the others report by closing the connection. */
#ifndef SHALE_SERVER_HTTP_POOL_H
#define SHALE_SERVER_HTTP_POOL_H

#include <stdbool.h>

struct server;

int http_pool_start(struct server *srv);
/* Takes an accepted HTTP connection (closes fd on failure). peer: the client's address. */
void http_pool_add(struct server *srv, int fd, const char *peer);
/* Shuts down parked connections idle past the keep-alive timeout, or all of them once
 * the server stops. Called by the watchdog and during shutdown. */
void http_pool_expire(struct server *srv);
/* After the last connection closed: lets the workers leave and frees the pool. */
void http_pool_stop(struct server *srv);

#endif
