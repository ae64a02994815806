/* The abstract syntax tree of a statement.
 *
 * The parser produces it from SQL text; nothing in it is resolved (names, types and
 * functions are the analyzer's job). Operators are already rewritten into ClickHouse's
 * function names: a + b → plus(a, b), a = b → equals, a AND b AND c → and(a, b, c),
 * NOT a → not, -a → negate, a[i] → arrayElement, a IN (…) → in(a, …), x ? a : b → if,
 * CASE WHEN … → multiIf, CASE x WHEN … → caseWithExpression(x, w1, t1, …, else),
 * a BETWEEN x AND y → and(greaterOrEquals(a, x), lessOrEquals(a, y)), x IS NULL →
 * isNull(x), CAST(x AS T) and x::T → CAST(x, 'T'), [a, b] → array(a, b), (a, b) →
 * tuple(a, b), a LIKE b → like, a NOT LIKE b → notLike, ILIKE → ilike, a || b → concat,
 * a.b on a tuple → tupleElement only when not a qualified column (the analyzer decides),
 * INTERVAL n UNIT → toIntervalUnit(n), count(*) → count(), count(DISTINCT x) →
 * countDistinct(x) (sets `distinct` too).
 *
 * Every node records `pos`, its byte offset in the query text, for error messages.
 * Memory: all nodes and strings live in the arena passed to the parser; the caller frees
 * the arena. Not thread-safe (read-only after parsing, so it may be shared then). */
#ifndef SHALE_PARSE_AST_H
#define SHALE_PARSE_AST_H

#include "base/arena.h"
#include "base/buf.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum ast_kind {
    AST_LITERAL,
    AST_IDENT,       /* name parts: ["t", "col"] for t.col */
    AST_ASTERISK,    /* * or t.* (qualifier = "t"); COLUMNS('re') later */
    AST_FUNC,        /* name(args) or name(params)(args) */
    AST_LAMBDA,      /* (x, y) -> body: params in `names`, body in args[0] */
    AST_SUBQUERY,    /* (SELECT …) used as an expression or a table */
    AST_PARAM,       /* {name:Type} */
    AST_SELECT,      /* one SELECT */
    AST_UNION,       /* SELECT … UNION ALL SELECT …: children are AST_SELECT/AST_UNION */
    AST_TABLE,       /* table reference: a table name, a table function or a subquery */
    AST_JOIN,        /* join clause attached to a table */
    AST_ARRAY_JOIN,  /* [LEFT] ARRAY JOIN a [AS x], …: expressions in args, LEFT in join_kind */
    AST_ORDER_ITEM,  /* expr ASC|DESC NULLS FIRST|LAST (COLLATE flagged) */
    AST_SETTING,     /* name = value (value is a literal node) */
    AST_WINDOW,      /* a window: OVER (…) of an AST_FUNC, or WINDOW name AS (…) (alias = name) */
    /* statements */
    AST_STMT_SELECT, /* wraps AST_SELECT / AST_UNION with FORMAT, INTO OUTFILE, SETTINGS */
    AST_STMT_INSERT,
    AST_STMT_SET,
    AST_STMT_DESCRIBE,
    AST_STMT_EXPLAIN,
    AST_STMT_CREATE_TABLE,
    AST_STMT_CREATE_DATABASE,
    AST_STMT_DROP,
    AST_STMT_DETACH, /* DETACH TABLE|VIEW …: show_what, if_exists, str = "PERMANENTLY" or NULL */
    AST_STMT_ATTACH, /* ATTACH TABLE …: show_what, if_not_exists, str = the text after the name
                        (ATTACH's full form) or NULL */
    AST_STMT_TRUNCATE,
    AST_STMT_RENAME,
    AST_STMT_SHOW,
    AST_STMT_USE,
    AST_STMT_OPTIMIZE,
    AST_STMT_SYSTEM,
    AST_STMT_ALTER,
    AST_STMT_CHECK,
    AST_STMT_KILL,   /* KILL QUERY WHERE cond: `where`; str = "SYNC", "ASYNC" or "TEST" */
    AST_STMT_BACKUP, /* BACKUP … TO dest / RESTORE … FROM dest (see below) */
    AST_STMT_RESTORE,
    /* CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] name AS lambda: name in `name`, the
     * lambda (or whatever expression was written, refused by interp) in `sub`, its text in
     * str / str_len; or_replace, if_not_exists. DROP FUNCTION [IF EXISTS] name: `name`,
     * if_exists. */
    AST_STMT_CREATE_FUNCTION,
    AST_STMT_DROP_FUNCTION,
    AST_ALTER_CMD,   /* one ALTER TABLE command (see below) */
    AST_COLUMN_DEF,  /* CREATE TABLE column: name in `name`, type text in `str`,
                        default_kind + default expression in `sub`, codec (AST_FUNC list)
                        in `codec`, comment in `comment`, nullable: 1 NULL, -1 NOT NULL */
} ast_kind;

typedef enum lit_kind {
    LIT_NULL,
    LIT_BOOL,   /* true / false */
    LIT_UINT,   /* non-negative integer that fits UInt64 */
    LIT_INT,    /* negative integer that fits Int64 */
    LIT_FLOAT,  /* has '.', exponent, inf, nan, or does not fit 64 bits */
    LIT_STRING,
    LIT_ARRAY,  /* [literal, …] of constants: kept as AST_FUNC array() by the parser */
} lit_kind;

typedef struct ast ast;

/* AST_UNION's operators: a kind, or-ed with a mode (none written: the *_default_mode
 * setting decides). */
typedef enum ast_set_op {
    SETOP_UNION = 0,
    SETOP_EXCEPT = 1,
    SETOP_INTERSECT = 2,
    SETOP_KIND_MASK = 3,
    SETOP_ALL = 4,
    SETOP_DISTINCT = 8,
} ast_set_op;

typedef enum ast_group_by_mod { GB_PLAIN, GB_ROLLUP, GB_CUBE, GB_SETS } ast_group_by_mod;

typedef enum window_frame_kind { WF_ROWS = 1, WF_RANGE, WF_GROUPS } window_frame_kind;
typedef enum window_bound {
    WB_UNBOUNDED_PRECEDING,
    WB_PRECEDING,
    WB_CURRENT_ROW,
    WB_FOLLOWING,
    WB_UNBOUNDED_FOLLOWING,
} window_bound;

typedef struct ast_list {
    int n;
    ast **items;
} ast_list;

struct ast {
    ast_kind kind;
    int pos;               /* byte offset in the query */
    int end;               /* byte offset just past the node */
    const char *alias;     /* "AS alias", or NULL */

    /* AST_LITERAL */
    lit_kind lit;
    uint64_t u;            /* LIT_UINT, LIT_BOOL */
    int64_t i;             /* LIT_INT */
    double f;              /* LIT_FLOAT */
    const char *str;       /* LIT_STRING (unescaped, may contain NUL: use str_len) */
    size_t str_len;
    const char *text;      /* literal as written, for column names (numbers) */

    /* AST_IDENT: parts; AST_ASTERISK: qualifier in parts when n = 1; AST_LAMBDA: params */
    int nparts;
    const char **parts;

    /* AST_FUNC */
    const char *name;      /* ClickHouse function name (see above) */
    ast_list args;
    ast_list params;       /* parametric aggregates: quantile(0.9)(x) */
    bool has_params;
    bool distinct;         /* count(DISTINCT x) */
    bool is_operator;      /* came from an operator: formatting keeps the function form */
    ast *over;             /* f(…) OVER (…): an AST_WINDOW; OVER name: over_name */
    const char *over_name;
    char nulls_action;     /* f(…) IGNORE NULLS: 'I', RESPECT NULLS: 'R', else 0 */

    /* AST_SUBQUERY: query in `sub`; AST_PARAM: name in name, type in str */
    ast *sub;
    /* AST_SUBQUERY of WITH name AS (SELECT …): a table for the query, not an expression
     * (WITH (SELECT …) AS name is a scalar: both are tables, only this one a value) */
    bool cte;

    /* AST_SELECT */
    ast_list with;         /* WITH expr AS x, WITH x AS (subquery): alias set on each */
    bool select_distinct;
    ast_list select;       /* expressions (aliases on the nodes) */
    ast *from;             /* AST_TABLE or NULL */
    ast_list array_joins;  /* AST_ARRAY_JOIN clauses after FROM, in order */
    ast *prewhere;
    ast *where;
    ast_list group_by;
    bool group_by_all;
    /* GROUP BY modifiers: ROLLUP(keys) / keys WITH ROLLUP, CUBE likewise (keys in
     * group_by), GROUPING SETS ((…), …) (each set an AST_FUNC "tuple" in grouping_sets);
     * group_by_with: written as WITH ROLLUP / WITH CUBE */
    int group_by_mod;      /* an ast_group_by_mod */
    bool group_by_with;
    ast_list grouping_sets;
    bool with_totals;
    ast *having;
    ast_list order_by;     /* AST_ORDER_ITEM */
    bool has_interpolate;  /* INTERPOLATE [(col [AS expr], …)]: expr with alias = col */
    ast_list interpolate;
    ast *limit;            /* LIMIT n */
    ast *offset;           /* OFFSET m, or LIMIT m, n */
    ast *limit_by_limit;   /* LIMIT n BY … */
    ast *limit_by_offset;
    ast_list limit_by;
    ast_list settings;     /* AST_SETTING (SELECT-level SETTINGS) */

    /* AST_UNION: selects in `args`, as written (no precedence applied: the analyzer
     * groups them as ClickHouse does); set_ops[i] (i >= 1) is the operator between
     * args[i - 1] and args[i]: an ast_set_op kind | mode. */
    unsigned char *set_ops;

    /* AST_TABLE: exactly one of table_name (with database), table_func (AST_FUNC), sub
     * (AST_SUBQUERY's query); join: the next table joined to this one (AST_JOIN). */
    const char *database;
    const char *table_name;
    ast *table_func;
    bool final;
    ast *join;

    /* AST_JOIN: kind and strictness as written; right table in `sub` (an AST_TABLE),
     * ON expression in `on`, USING columns in `using_cols` */
    const char *join_kind;       /* "INNER", "LEFT", "RIGHT", "FULL", "CROSS" */
    const char *join_strictness; /* NULL, "ANY", "ALL", "SEMI", "ANTI", "ASOF" */
    ast *on;
    ast_list using_cols;

    /* AST_ORDER_ITEM: expression in `sub` */
    bool desc;
    int nulls;             /* 0 = default, 1 = NULLS FIRST, -1 = NULLS LAST */
    ast *with_fill;        /* WITH FILL given: a placeholder node; its bounds below */
    ast *fill_from, *fill_to, *fill_step, *fill_staleness;
    bool collate;          /* COLLATE 'x' given: unsupported, a clear error */

    /* AST_SETTING: name in name, value in sub */

    /* AST_WINDOW: PARTITION BY in partition_by, ORDER BY in order_by (AST_ORDER_ITEM),
     * the window it extends (OVER (w ORDER BY …)) in window_base; the frame: frame_kind
     * (0 = none given, else a window_frame_kind), its bounds (window_bound) and their
     * offsets (expressions, for WB_PRECEDING / WB_FOLLOWING). AST_SELECT: WINDOW clause
     * in windows. */
    const char *window_base;
    int frame_kind;
    int frame_start, frame_end;
    ast *frame_start_off, *frame_end_off;
    ast_list windows;

    /* Statements. AST_STMT_SELECT: query in sub; format (FORMAT x); outfile (INTO
     * OUTFILE 'f'); settings. AST_STMT_INSERT: target table (database/table_name) or
     * table_func (INSERT INTO FUNCTION f(…)); insert_columns; sub = SELECT, or
     * format + inline data (insert_data, after FORMAT fmt / VALUES). AST_STMT_SET:
     * settings. AST_STMT_DESCRIBE: sub = AST_TABLE. AST_STMT_EXPLAIN: explain_kind
     * ("AST", "SYNTAX", "PLAN", "PIPELINE", "ESTIMATE"), sub = statement. */
    const char *format;
    const char *outfile;
    ast_list insert_columns;
    const char *insert_data;   /* inline data after FORMAT x / VALUES, up to the end */
    size_t insert_data_len;
    const char *explain_kind;
    ast_list partition_by;     /* INSERT INTO FUNCTION … PARTITION BY expr; AST_WINDOW */

    /* DDL (issue 6 extends): CREATE TABLE name (columns) ENGINE = … ORDER BY …; stored
     * as text spans so the catalog can persist exactly what the user wrote. */
    bool if_not_exists;
    bool if_exists;
    ast_list columns;          /* column definitions: AST_IDENT-named nodes, type in str */
    ast *engine;               /* AST_FUNC */
    ast_list order_by_key;
    ast_list primary_key;
    ast *partition_key;
    ast *as_select;
    const char *show_what;     /* SHOW TABLES / DATABASES / CREATE TABLE; DROP: TABLE /
                                  DATABASE; SHOW … LIKE pattern in `sub` (literal) */
    /* AST_COLUMN_DEF (see above) */
    const char *default_kind;  /* "DEFAULT", "MATERIALIZED", "ALIAS", "EPHEMERAL" or NULL */
    ast_list codec;
    const char *comment;       /* column or table COMMENT */
    int nullable;
    bool or_replace;           /* CREATE OR REPLACE */
    bool temporary;            /* CREATE/DROP TEMPORARY TABLE */
    const char *uuid;          /* CREATE TABLE t UUID '…' */
    int constraint_pos;        /* CREATE TABLE: byte offset of the first CONSTRAINT + 1, or 0
                                  (INDEX and PROJECTION elements are skipped: they only
                                  speed up reads; constraints would change INSERT) */
    /* CREATE MATERIALIZED VIEW (show_what "MATERIALIZED VIEW"): TO [db.]target as an
     * AST_TABLE (NULL: the view's own inner table, from the ENGINE clauses); POPULATE. */
    ast *mv_to;
    bool populate;
    bool deduplicate;          /* OPTIMIZE … DEDUPLICATE [BY …] */
    /* AST_COLUMN_DEF: the column's TTL expression, NULL when none */
    ast *ttl;
    /* AST_TABLE: SAMPLE k [OFFSET m], each ratio as written ("0.1", "1/10", "1000"), or
     * NULL. CREATE TABLE: SAMPLE BY expression, or NULL. */
    const char *sample_size;
    const char *sample_offset;
    ast *sample_by;
    /* AST_STMT_RENAME: pairs (from, to) of AST_TABLE in `args`. AST_STMT_SYSTEM /
     * AST_STMT_ALTER: the text after SYSTEM / after the table name in `str`.
     * AST_STMT_INSERT with VALUES: format = "Values", insert_data = the text after VALUES
     * up to the end of the statement (not including ';'). With FORMAT x: insert_data
     * runs from the first non-space byte after the format name to the end of the input
     * (so sql_parse_statement consumes the rest of the input). */
    bool bracket_syntax;       /* AST_FUNC array/tuple written as [..] / (..) */
    /* AST_STMT_ALTER: either the commands in `args` (AST_ALTER_CMD), or for the part and
     * partition commands (ATTACH / DETACH / DROP PART|PARTITION …) the text in `str`.
     * DELETE FROM t WHERE c is an AST_STMT_ALTER with one "LIGHTWEIGHT DELETE" command.
     * AST_ALTER_CMD: `name` is the command ("ADD COLUMN", "DROP COLUMN", "RENAME COLUMN",
     * "MODIFY COLUMN", "COMMENT COLUMN", "MODIFY COMMENT", "DELETE", "UPDATE",
     * "LIGHTWEIGHT DELETE"); the column definition in `sub` (ADD / MODIFY); the column
     * named in alter_col; RENAME's new name or AFTER's column in alter_to; FIRST in
     * alter_first; the comment in `comment`; UPDATE's assignments as AST_SETTING nodes
     * (name = column, sub = value) in `args`; the condition in `where`; IF [NOT] EXISTS
     * in if_exists / if_not_exists. */
    const char *alter_col;
    const char *alter_to;
    bool alter_first;
    /* CREATE TABLE … EMPTY AS SELECT: the columns of the SELECT, no rows. AST_STMT_RENAME
     * from EXCHANGE TABLES a AND b: exchange (args hold the pair). */
    bool create_empty;
    bool exchange;
    /* AST_ASTERISK: the EXCEPT column transformer (* EXCEPT [STRICT] name | 'regexp' |
     * (name, …)): names as AST_IDENT, regular expressions as string literals; STRICT: every
     * name must be a column. */
    ast_list except_cols;
    bool except_strict;
    /* AST_ASTERISK with APPLY or REPLACE among its transformers: all of them in order (then
     * except_cols stays empty), as AST_FUNC nodes named "APPLY" (args[0]: the function, an
     * AST_FUNC without arguments, with params when parametric, or an AST_LAMBDA),
     * "REPLACE" (args: the expressions, each with its alias) or "EXCEPT" (args as in
     * except_cols); `distinct` on REPLACE / EXCEPT means STRICT. COLUMNS('regexp') and
     * COLUMNS(a, b) are AST_ASTERISK with columns_matcher set and the regexp (a string
     * literal) or the names (AST_IDENT) in matcher_cols. The analyzer expands them. */
    ast_list col_transforms;
    ast_list matcher_cols;
    bool columns_matcher;
    /* CREATE TABLE: data skipping indexes (INDEX name expr TYPE …) were declared; the
     * parser skips their definitions (shale does not use them). */
    bool has_skip_indexes;
    /* AST_STMT_BACKUP / AST_STMT_RESTORE: what in `args` — AST_TABLE nodes with show_what
     * "TABLE" (database, table_name) or "DATABASE" (database), each with the name in the
     * backup (AS …) as an AST_TABLE in `sub` or NULL; the destination or source as an
     * AST_FUNC in table_func (File('…'), S3(…), Disk(…)); the backup settings in
     * `settings` (values may be AST_FUNC: base_backup = File('…')); ASYNC: `final`. */
};

/* Parses one statement starting at sql[*pos]; on success *out is the statement and *pos
 * is just past it (and past a ';' if one follows). Returns -1 with ERR_SYNTAX_ERROR and
 * ClickHouse's message ("Syntax error: failed at position N (line L, col C) ('excerpt'):
 * excerpt. Expected one of: …") on bad input. An empty remainder (only spaces, comments
 * and ';') sets *out = NULL and returns 0. max_depth bounds recursion (max_parser_depth). */
int sql_parse_statement(arena *a, const char *sql, size_t len, size_t *pos, int max_depth, ast **out);

/* Splits a script into statements without parsing them fully (for --queries-file and
 * the REPL): finds the end of the statement starting at *pos respecting quotes,
 * comments and inline data after FORMAT / VALUES. */
size_t sql_statement_end(const char *sql, size_t len, size_t pos);

/* Appends the ClickHouse column name of an expression: the expression formatted as
 * ClickHouse formats it (plus(a, 1), count(), 'str', [1, 2], CAST(x, 'String')). */
void ast_format_name(buf *out, const ast *e);
/* Appends the statement formatted back as SQL (for EXPLAIN AST/SYNTAX, query log). */
void ast_format_sql(buf *out, const ast *e);
/* " UNION ALL ", " EXCEPT ", …: an AST_UNION operator (ast_set_op) between spaces. */
void ast_format_set_op(buf *out, int op);
/* The expression as ClickHouse prints it in SHOW CREATE TABLE (a * 2, concat(b, 'y')). */
void ast_format_expr(buf *out, const ast *e);
/* A lambda as ClickHouse prints it in a user-defined function's create_query: operators
 * inside operators and an operator body in parentheses ((x, y) -> (x + (y * 2))). */
void ast_format_lambda_ch(buf *out, const ast *e);
/* A comma-separated list of expressions, each as ast_format_expr prints it. */
void ast_format_expr_list(buf *out, const ast_list *l);
/* An identifier as ClickHouse prints it: bare when it is [A-Za-z_][A-Za-z0-9_]*, else in
 * backquotes with ` and \ escaped. */
void ast_format_ident(buf *out, const char *name);
/* s[0..n) as a quoted string literal ('it\'s'). */
void ast_format_quoted(buf *out, const char *s, size_t n);
/* A SELECT (or UNION ALL of SELECTs) as ClickHouse prints it in SHOW CREATE VIEW
 * (one_line: in system.tables.create_table_query), tables without a database given `db`;
 * src[0..src_len) is the text the AST was parsed from. Returns false — the text in out
 * then meaningless — when the query has a construct whose ClickHouse form this does not
 * reproduce (ast_format_query.c lists them). */
bool ast_format_query_ch(buf *out, const ast *q, const char *src, size_t src_len, const char *db, bool one_line);
/* A float constant as ClickHouse prints it (1.5, 1000.); false for infinities, NaN and
 * values ClickHouse prints in exponent form (not reproduced). */
bool ast_format_float_ch(buf *out, double v);
/* EXPLAIN SYNTAX: the query (AST_SELECT / AST_UNION) as ClickHouse 26.7 prints it, over
 * several lines (ast_format_syntax.c has the rules); src[0..src_len) is the text it was
 * parsed from; modes are the union, except and intersect default modes ("ALL",
 * "DISTINCT" or ""). Returns false with *why naming the first construct whose form it
 * does not reproduce (out is then meaningless). */
bool ast_format_explain_syntax(buf *out, const ast *q, const char *src, size_t src_len, const char *const modes[3],
                               const char **why);
/* An ALTER command as ClickHouse formats it in system.mutations, without the enclosing
 * parentheses: "DELETE WHERE a = 1", "UPDATE b = 'q' WHERE 1", "RENAME COLUMN b TO c". */
void ast_format_alter_cmd(buf *out, const ast *cmd);
/* EXPLAIN AST: the tree in ClickHouse's indented form. */
/* false when e holds what the dump cannot show as ClickHouse does (the text is then
 * incomplete: the caller refuses it) */
bool ast_dump(buf *out, const ast *e, int indent);

ast *ast_new(arena *a, ast_kind kind, int pos);
void ast_list_push(arena *a, ast_list *l, ast *item);

#endif
