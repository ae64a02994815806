#include "cli/repl.h"

#include "base/buf.h"
#include "base/mem.h"

#include <editline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void history_path(char *out, size_t cap)
{
    const char *home = getenv("HOME");
    snprintf(out, cap, "%s/.shale-history", home && *home ? home : ".");
}

static bool ends_statement(const buf *b)
{
    size_t n = b->len;
    while (n && (b->p[n - 1] == ' ' || b->p[n - 1] == '\t' || b->p[n - 1] == '\n'))
        n--;
    return n && b->p[n - 1] == ';';
}

int repl_run(session *s)
{
    char hist[4096];
    history_path(hist, sizeof hist);
    using_history();
    read_history(hist);
    printf("shale local. Type a query ending with ';', or 'exit'.\n\n");
    buf stmt = {0};
    int last = 0;
    for (;;) {
        char *line = readline(stmt.len ? ":-] " : "shale :) ");
        if (!line)
            break;
        if (stmt.len == 0 && (strcasecmp(line, "exit") == 0 || strcasecmp(line, "quit") == 0 ||
                              strcasecmp(line, "exit;") == 0 || strcasecmp(line, "quit;") == 0 ||
                              strcmp(line, "q") == 0)) {
            free(line);
            break;
        }
        bool empty = line[strspn(line, " \t")] == 0;
        if (stmt.len)
            buf_putc(&stmt, '\n');
        buf_puts(&stmt, line);
        free(line);
        if (ends_statement(&stmt) || (empty && stmt.len > 1)) {
            const char *text = buf_cstr(&stmt);
            add_history(text);
            write_history(hist);
            last = session_run_script(s, text, stmt.len);
            stmt.len = 0;
        }
    }
    buf_free(&stmt);
    printf("Bye.\n");
    return last;
}
