#include "base/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int tl_code;
static _Thread_local char tl_msg[ERR_MSG_MAX];

int err_set(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tl_msg, sizeof tl_msg, fmt, ap);
    va_end(ap);
    tl_code = code;
    return -1;
}

int err_prefix(const char *fmt, ...)
{
    char head[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    char old[ERR_MSG_MAX];
    memcpy(old, tl_msg, sizeof old);
    snprintf(tl_msg, sizeof tl_msg, "%s%s", head, old);
    return -1;
}

int err_suffix(const char *fmt, ...)
{
    size_t len = strlen(tl_msg);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tl_msg + len, sizeof tl_msg - len, fmt, ap);
    va_end(ap);
    return -1;
}

int err_code(void) { return tl_code; }
const char *err_msg(void) { return tl_msg; }

void err_clear(void)
{
    tl_code = 0;
    tl_msg[0] = 0;
}

void err_save(err_saved *dst)
{
    dst->code = tl_code;
    memcpy(dst->msg, tl_msg, sizeof dst->msg);
}

int err_restore(const err_saved *src)
{
    tl_code = src->code;
    memcpy(tl_msg, src->msg, sizeof tl_msg);
    return -1;
}

static const struct {
    int code;
    const char *name;
} names[] = {
    {ERR_UNSUPPORTED_METHOD, "UNSUPPORTED_METHOD"},
    {ERR_CANNOT_PARSE_TEXT, "CANNOT_PARSE_TEXT"},
    {ERR_NUMBER_OF_COLUMNS_DOESNT_MATCH, "NUMBER_OF_COLUMNS_DOESNT_MATCH"},
    {ERR_INCORRECT_NUMBER_OF_COLUMNS, "INCORRECT_NUMBER_OF_COLUMNS"},
    {ERR_DUPLICATE_COLUMN, "DUPLICATE_COLUMN"},
    {ERR_CANNOT_PARSE_ESCAPE_SEQUENCE, "CANNOT_PARSE_ESCAPE_SEQUENCE"},
    {ERR_CANNOT_PARSE_QUOTED_STRING, "CANNOT_PARSE_QUOTED_STRING"},
    {ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED, "CANNOT_PARSE_INPUT_ASSERTION_FAILED"},
    {ERR_ATTEMPT_TO_READ_AFTER_EOF, "ATTEMPT_TO_READ_AFTER_EOF"},
    {ERR_CANNOT_READ_ALL_DATA, "CANNOT_READ_ALL_DATA"},
    {ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION, "TOO_MANY_ARGUMENTS_FOR_FUNCTION"},
    {ERR_TOO_FEW_ARGUMENTS_FOR_FUNCTION, "TOO_FEW_ARGUMENTS_FOR_FUNCTION"},
    {ERR_BAD_ARGUMENTS, "BAD_ARGUMENTS"},
    {ERR_UNKNOWN_ELEMENT_IN_AST, "UNKNOWN_ELEMENT_IN_AST"},
    {ERR_CANNOT_PARSE_DATE, "CANNOT_PARSE_DATE"},
    {ERR_CANNOT_PARSE_DATETIME, "CANNOT_PARSE_DATETIME"},
    {ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
    {ERR_ILLEGAL_TYPE_OF_ARGUMENT, "ILLEGAL_TYPE_OF_ARGUMENT"},
    {ERR_ILLEGAL_COLUMN, "ILLEGAL_COLUMN"},
    {ERR_UNKNOWN_FUNCTION, "UNKNOWN_FUNCTION"},
    {ERR_UNKNOWN_IDENTIFIER, "UNKNOWN_IDENTIFIER"},
    {ERR_NOT_IMPLEMENTED, "NOT_IMPLEMENTED"},
    {ERR_LOGICAL_ERROR, "LOGICAL_ERROR"},
    {ERR_UNKNOWN_TYPE, "UNKNOWN_TYPE"},
    {ERR_TYPE_MISMATCH, "TYPE_MISMATCH"},
    {ERR_TABLE_ALREADY_EXISTS, "TABLE_ALREADY_EXISTS"},
    {ERR_UNKNOWN_TABLE, "UNKNOWN_TABLE"},
    {ERR_SYNTAX_ERROR, "SYNTAX_ERROR"},
    {ERR_UNKNOWN_AGGREGATE_FUNCTION, "UNKNOWN_AGGREGATE_FUNCTION"},
    {ERR_ARGUMENT_OUT_OF_BOUND, "ARGUMENT_OUT_OF_BOUND"},
    {ERR_CANNOT_CONVERT_TYPE, "CANNOT_CONVERT_TYPE"},
    {ERR_CANNOT_PARSE_NUMBER, "CANNOT_PARSE_NUMBER"},
    {ERR_UNKNOWN_FORMAT, "UNKNOWN_FORMAT"},
    {ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR, "CANNOT_READ_FROM_FILE_DESCRIPTOR"},
    {ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR, "CANNOT_WRITE_TO_FILE_DESCRIPTOR"},
    {ERR_CANNOT_OPEN_FILE, "CANNOT_OPEN_FILE"},
    {ERR_CANNOT_CLOSE_FILE, "CANNOT_CLOSE_FILE"},
    {ERR_INCORRECT_QUERY, "INCORRECT_QUERY"},
    {ERR_UNKNOWN_DATABASE, "UNKNOWN_DATABASE"},
    {ERR_EMPTY_DATA_PASSED, "EMPTY_DATA_PASSED"},
    {ERR_CANNOT_STAT, "CANNOT_STAT"},
    {ERR_FILE_DOESNT_EXIST, "FILE_DOESNT_EXIST"},
    {ERR_UNKNOWN_SETTING, "UNKNOWN_SETTING"},
    {ERR_INCORRECT_DATA, "INCORRECT_DATA"},
    {ERR_ILLEGAL_INDEX, "ILLEGAL_INDEX"},
    {ERR_TOO_LARGE_ARRAY_SIZE, "TOO_LARGE_ARRAY_SIZE"},
    {ERR_NO_ELEMENTS_IN_CONFIG, "NO_ELEMENTS_IN_CONFIG"},
    {ERR_ILLEGAL_DIVISION, "ILLEGAL_DIVISION"},
    {ERR_TIMEOUT_EXCEEDED, "TIMEOUT_EXCEEDED"},
    {ERR_TOO_DEEP_AST, "TOO_DEEP_AST"},
    {ERR_CANNOT_ALLOCATE_MEMORY, "CANNOT_ALLOCATE_MEMORY"},
    {ERR_ILLEGAL_AGGREGATION, "ILLEGAL_AGGREGATION"},
    {ERR_SIZES_OF_ARRAYS_DONT_MATCH, "SIZES_OF_ARRAYS_DONT_MATCH"},
    {ERR_UNKNOWN_USER, "UNKNOWN_USER"},
    {ERR_NETWORK_ERROR, "NETWORK_ERROR"},
    {ERR_NOT_AN_AGGREGATE, "NOT_AN_AGGREGATE"},
    {ERR_UNEXPECTED_AST_STRUCTURE, "UNEXPECTED_AST_STRUCTURE"},
    {ERR_MEMORY_LIMIT_EXCEEDED, "MEMORY_LIMIT_EXCEEDED"},
    {ERR_UNKNOWN_COMPRESSION_METHOD, "UNKNOWN_COMPRESSION_METHOD"},
    {ERR_CANNOT_COMPRESS, "CANNOT_COMPRESS"},
    {ERR_CANNOT_DECOMPRESS, "CANNOT_DECOMPRESS"},
    {ERR_VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE"},
    {ERR_AMBIGUOUS_COLUMN_NAME, "AMBIGUOUS_COLUMN_NAME"},
    {ERR_ILLEGAL_SYNTAX_FOR_DATA_TYPE, "ILLEGAL_SYNTAX_FOR_DATA_TYPE"},
    {ERR_QUERY_WAS_CANCELLED, "QUERY_WAS_CANCELLED"},
    {ERR_TOO_MANY_ROWS_OR_BYTES, "TOO_MANY_ROWS_OR_BYTES"},
    {ERR_INVALID_JOIN_ON_EXPRESSION, "INVALID_JOIN_ON_EXPRESSION"},
    {ERR_DECIMAL_OVERFLOW, "DECIMAL_OVERFLOW"},
    {ERR_UNKNOWN_QUERY_PARAMETER, "UNKNOWN_QUERY_PARAMETER"},
    {ERR_BAD_QUERY_PARAMETER, "BAD_QUERY_PARAMETER"},
    {ERR_QUERY_IS_PROHIBITED, "QUERY_IS_PROHIBITED"},
    {ERR_CANNOT_EXTRACT_TABLE_STRUCTURE, "CANNOT_EXTRACT_TABLE_STRUCTURE"},
    {ERR_TOO_LARGE_STRING_SIZE, "TOO_LARGE_STRING_SIZE"},
    {ERR_UNKNOWN_ELEMENT_OF_ENUM, "UNKNOWN_ELEMENT_OF_ENUM"},
    {ERR_CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, "CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN"},
    {ERR_FUNCTION_THROW_IF_VALUE_IS_NON_ZERO, "FUNCTION_THROW_IF_VALUE_IS_NON_ZERO"},
    {ERR_CANNOT_COMPILE_REGEXP, "CANNOT_COMPILE_REGEXP"},
    {ERR_NO_COMMON_TYPE, "NO_COMMON_TYPE"},
    {ERR_PARAMETER_OUT_OF_BOUND, "PARAMETER_OUT_OF_BOUND"},
};

const char *err_name(int code)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == code)
            return names[i].name;
    return "UNKNOWN";
}

int err_code_by_name(const char *name)
{
    char *end;
    long v = strtol(name, &end, 10);
    if (end != name && *end == 0)
        return (int)v;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0)
            return names[i].code;
    return -1;
}
