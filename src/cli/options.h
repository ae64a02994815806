/* Command-line options as clickhouse-local and clickhouse-client read them: `--name=value`,
 * `--name value`, `--flag`, and one-letter short forms (`-q value`).
 *
 * Not thread-safe (startup only); nothing is allocated: names are copied into the caller's
 * buffer and values point into argv. Errors are printed to stderr as ClickHouse prints them
 * (Code: 36 … BAD_ARGUMENTS) and returned as ERR_BAD_ARGUMENTS. */
#ifndef SHALE_CLI_OPTIONS_H
#define SHALE_CLI_OPTIONS_H

#include <stdbool.h>

#define CLI_NAME_MAX 256

typedef struct cli_short {
    char letter;
    const char *name; /* the long name it stands for */
} cli_short;

/* Prints "Code: 36. DB::Exception: <msg><arg>. (BAD_ARGUMENTS)"; returns ERR_BAD_ARGUMENTS. */
int cli_fail_usage(const char *msg, const char *arg);

/* Splits argv[*i] (and the value after it, advancing *i) into its long name and value.
 * shorts ends with {0, NULL}; is_flag(name) says which options take no separate value (a
 * flag's val is NULL unless written as --flag=value). Returns 0, or ERR_BAD_ARGUMENTS after
 * printing the reason (unknown short option, positional argument, missing value). */
int cli_next_option(int argc, char **argv, int *i, const cli_short *shorts, bool (*is_flag)(const char *name),
                    char name[CLI_NAME_MAX], const char **val);

#endif
