/* `shale client`: clickhouse-client over the native protocol (storage/native_client.h).
 * Statements from --query, --queries-file, stdin or the interactive prompt (cli/repl.h)
 * go to the server one at a time; results come back as blocks and are formatted here
 * (--format, the statement's FORMAT, PrettyCompact on a terminal, else TabSeparated);
 * INSERT … FORMAT x without inline data streams stdin to the server in blocks read with
 * the table's header. Errors print as clickhouse-client prints them and the exit code is
 * the error code modulo 256. */
#ifndef SHALE_CLI_CLIENT_H
#define SHALE_CLI_CLIENT_H

int client_main(int argc, char **argv);

#endif
