/* Statement execution for every front end (ClickHouse calls its equivalent Interpreters).
 *
 * A front end parses a statement (parse/ast.h), then hands it to interp_run with hooks
 * that say where a result goes and where inserted data comes from. interp_run creates
 * the query (the session's settings plus the statement's SETTINGS), executes SELECT,
 * INSERT in all its forms, DDL, OPTIMIZE, SYSTEM, SET, USE, DESCRIBE, EXPLAIN, SHOW,
 * EXISTS and CHECK, writes the query-log row, and tells the front end how it went.
 *
 *   front end ──ast──▶ interp_run ──▶ sql/ (analyze → plan) ──▶ exec/ (run) ──▶ sink
 *                         │                                              │
 *                         └──▶ interp/ddl.c ──▶ storage/ (catalog, engines)
 *                                                        output format ◀─┘ → hooks.open_output
 *
 * Thread-safety: one statement at a time per session; many sessions may run at once
 * on one instance. Errors: interp_run returns 0 or the ClickHouse error code, with the
 * message in the thread's error slot (err_msg()). */
#ifndef SHALE_INTERP_INTERP_H
#define SHALE_INTERP_INTERP_H

#include "exec/select.h"
#include "interp/session.h"
#include "io/stream.h"
#include "parse/ast.h"

typedef struct interp_result {
    bool has_result;      /* the statement produced a result set (SELECT, SHOW, …) */
    uint64_t result_rows; /* rows and bytes of that result */
    uint64_t result_bytes;
    uint64_t written_rows; /* rows an INSERT wrote */
    uint64_t written_bytes;
} interp_result;

typedef struct interp_hooks {
    void *ctx;
    /* Result format when the statement has no FORMAT clause (NULL = TabSeparated). */
    const char *default_format;
    /* The result is shown on a terminal (Pretty colours under "auto"). */
    bool output_tty;
    /* Opens the stream the formatted result is written to; called once, just before the
     * first bytes (the caller closes it through os->close). NULL = standard output. */
    int (*open_output)(void *ctx, query_ctx *q, const char *format, outstream **os);
    /* The result as blocks instead of formatted bytes (the native protocol sends blocks and
     * leaves formatting to its client): called once with the result's header before any
     * block, then the blocks and the WITH TOTALS row go to *sink (which the front end
     * owns). INTO OUTFILE still writes its file. NULL = format the result. */
    int (*open_blocks)(void *ctx, query_ctx *q, const schema *header, block_sink **sink);
    /* Opens the data that follows the statement (INSERT … FORMAT / VALUES without inline
     * data, input()); NULL = standard input. */
    int (*open_input)(void *ctx, query_ctx *q, instream **is);
    /* Applies the front end's settings for this query (the HTTP interface's URL
     * parameters) to q->st, after the session's and before the statement's SETTINGS.
     * May be NULL. */
    int (*apply_settings)(void *ctx, settings *st);
    /* Execution begins (after analysis of the settings): progress display, the list of
     * running queries. May be NULL. */
    void (*started)(void *ctx, query_ctx *q);
    /* Execution ended (code 0 or the error); q's counters are final. May be NULL. */
    void (*finished)(void *ctx, query_ctx *q, const interp_result *res, int code);
} interp_hooks;

typedef struct interp_request {
    const ast *stmt;          /* NULL when parsing failed: the error in the thread's slot is logged */
    const char *script;       /* the text the AST's positions index */
    size_t script_len;
    const char *text;         /* this statement's text, for the query log */
    size_t text_len;
    const char *query_id;     /* NULL = generate one */
} interp_request;

/* Runs one statement of session s. Returns 0 or the error code (message: err_msg()). */
int interp_run(session *s, const interp_request *rq, const interp_hooks *h, interp_result *res);

#endif
