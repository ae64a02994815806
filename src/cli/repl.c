#include "cli/repl.h"

#include "base/buf.h"
#include "base/err.h"
#include "base/lazylib.h"
#include "base/mem.h"

#include <editline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* libedit is loaded when the prompt starts (base/lazylib.h): scripts and `-q` never need
 * it. Without it the prompt still works, without line editing and history. */
static struct {
    __typeof__(readline) *readline;
    __typeof__(using_history) *using_history;
    __typeof__(read_history) *read_history;
    __typeof__(add_history) *add_history;
    __typeof__(write_history) *write_history;
} ed;

static const lazy_sym ed_syms[] = {
    {"readline", (void **)&ed.readline},
    {"using_history", (void **)&ed.using_history},
    {"read_history", (void **)&ed.read_history},
    {"add_history", (void **)&ed.add_history},
    {"write_history", (void **)&ed.write_history},
    {NULL, NULL},
};

static lazylib ed_lib = LAZYLIB_INIT("libedit.so.2", "line editing at the prompt", ed_syms);

/* A line without libedit: the prompt, then stdin up to the newline (malloc'd, no newline),
 * or NULL at the end of input. */
static char *plain_readline(const char *prompt)
{
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n && line[n - 1] == '\n')
        line[n - 1] = 0;
    return line;
}

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

int repl_run_with(const char *banner, const char *prompt1, int (*run)(void *ctx, const char *sql, size_t len),
                  void *ctx)
{
    char hist[4096];
    history_path(hist, sizeof hist);
    bool editing = lazylib_load(&ed_lib) == 0;
    if (editing) {
        ed.using_history();
        ed.read_history(hist);
    } else {
        fprintf(stderr, "%s; reading lines without editing or history.\n", err_msg());
        err_clear();
    }
    printf("%s", banner);
    buf stmt = {0};
    int last = 0;
    for (;;) {
        const char *prompt = stmt.len ? ":-] " : prompt1;
        char *line = editing ? ed.readline(prompt) : plain_readline(prompt);
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
            if (editing) {
                ed.add_history(text);
                ed.write_history(hist);
            }
            last = run(ctx, text, stmt.len);
            stmt.len = 0;
        }
    }
    buf_free(&stmt);
    printf("Bye.\n");
    return last;
}

static int run_local(void *ctx, const char *sql, size_t len) { return local_run_script(ctx, sql, len); }

int repl_run(local_shell *s)
{
    return repl_run_with("shale local. Type a query ending with ';', or 'exit'.\n\n", "shale :) ", run_local, s);
}
