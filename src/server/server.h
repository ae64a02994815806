/* `shale server`: ClickHouse's HTTP interface and native TCP protocol (native_proto.h)
 * over the statement layer (interp/).
 *
 * Life of the server (server.c):
 *   1. config_load (config.xml, users.xml, `--` overrides) → users_load → the memory
 *      limit (max_server_memory_usage, or the ratio of RAM) → instance_open(path).
 *   2. Listen on every listen_host at http_port (and tcp_port); the accept loop hands HTTP
 *      connections to the pool (http_pool.h) and starts a thread per native connection
 *      (at most max_connections in all; more wait in the kernel's backlog).
 *   3. A pool worker reads a connection's requests while they come (keep-alive; between
 *      requests the connection waits in an epoll set, not on a thread) and hands each
 *      to the HTTP handler (http_handler.c), which authenticates, finds or creates the
 *      session, and runs one statement through interp_run with the request body as the
 *      input and the response as the output.
 *   4. SIGHUP (or SYSTEM RELOAD CONFIG) reloads users and profiles; SIGTERM/SIGINT stop
 *      accepting, close idle keep-alive connections, give running queries up to
 *      shutdown_wait_unfinished seconds to finish, then close every table.
 * A watchdog thread cancels the query of a client that disconnected, and drops sessions
 * whose timeout passed.
 *
 * Errors: server_main returns the process exit code; failures before listening (bad
 * configuration, port in use) are printed in ClickHouse's layout. */
#ifndef SHALE_SERVER_SERVER_H
#define SHALE_SERVER_SERVER_H

/* Runs the server until SIGTERM/SIGINT: `shale server [--config-file F] [-- --name=value …]`. */
int server_main(int argc, char **argv);

#endif
