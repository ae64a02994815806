/* The interactive prompt of `shale local` (libedit, with history in ~/.shale-history).
 * A statement runs when a line ends with ';' (or on an empty line after text);
 * Ctrl-C cancels the running query; Ctrl-D or `exit`/`quit` leaves. */
#ifndef SHALE_CLI_REPL_H
#define SHALE_CLI_REPL_H

#include "cli/local.h"

int repl_run(local_shell *s);

#endif
