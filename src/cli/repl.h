/* The interactive prompt of `shale local` and `shale client` (libedit, with history in
 * ~/.shale-history).
 * A statement runs when a line ends with ';' (or on an empty line after text);
 * Ctrl-C cancels the running query; Ctrl-D or `exit`/`quit` leaves. */
#ifndef SHALE_CLI_REPL_H
#define SHALE_CLI_REPL_H

#include "cli/local.h"

int repl_run(local_shell *s);
/* The prompt over any runner: banner first, then each statement to run(ctx, sql, len),
 * which returns 0 or the code of its error. Returns the last statement's result. */
int repl_run_with(const char *banner, const char *prompt, int (*run)(void *ctx, const char *sql, size_t len),
                  void *ctx);

#endif
