/* A connection's second thread for sending large results: the query's thread hands over a
 * piece of a packet (its buffer's bytes, no copy) and goes on writing the next one while
 * this thread sends the last one — the system calls and the kernel's copy of the bytes
 * leave the query's path.
 *
 * Ownership: one send_thread per connection, made and freed by the connection's thread;
 * put and drain come from one thread at a time (the caller holds the connection's output
 * lock, so no other packet can come between the pieces). At most one piece waits and one
 * is being sent. Errors: a failed send is kept (err_save) and given back by the next put
 * or drain, which return -1; nothing is sent after it. */
#ifndef SHALE_SERVER_SEND_THREAD_H
#define SHALE_SERVER_SEND_THREAD_H

#include "base/buf.h"

typedef struct send_thread send_thread;

/* send(ctx, bytes, kind): sends all of bytes (kind: the put's, what to do with them first,
 * such as compressing) or sets the error and returns -1 (run on the thread). NULL if the
 * thread cannot be started (the caller then sends itself). */
send_thread *send_thread_new(int (*send)(void *ctx, const buf *bytes, int kind), void *ctx);
/* Takes b's bytes to be sent after those put before; b is left empty (another buffer's
 * memory, reused). Waits while a piece is already waiting. */
int send_thread_put(send_thread *t, buf *b, int kind);
/* Waits until everything put is sent. */
int send_thread_drain(send_thread *t);
/* Stops and joins the thread (what is still waiting is dropped). NULL is fine. */
void send_thread_free(send_thread *t);

#endif
