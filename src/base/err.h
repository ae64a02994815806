/* Errors as values.
 *
 * Every fallible function returns an int: 0 on success, -1 on failure. On failure the
 * function has recorded a ClickHouse-compatible error code and a message in the calling
 * thread's error slot (err_set). The slot is thread-local, so worker threads never race on
 * it; a pipeline copies a worker's error into the query with err_save / err_restore.
 *
 * Messages say what failed, where (file, offset, query position) and why. Nothing in shale
 * longjmps or aborts on bad input. */
#ifndef SHALE_BASE_ERR_H
#define SHALE_BASE_ERR_H

#include <stddef.h>

/* ClickHouse error codes (src/Common/ErrorCodes.cpp), the subset shale raises. */
enum {
    ERR_OK = 0,
    ERR_UNSUPPORTED_METHOD = 1,
    ERR_CANNOT_PARSE_TEXT = 6,
    ERR_NUMBER_OF_COLUMNS_DOESNT_MATCH = 7,
    ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED = 27,
    ERR_CANNOT_PARSE_QUOTED_STRING = 26,
    ERR_ATTEMPT_TO_READ_AFTER_EOF = 32,
    ERR_CANNOT_READ_ALL_DATA = 33,
    ERR_TOO_MANY_ARGUMENTS_FOR_FUNCTION = 34,
    ERR_TOO_FEW_ARGUMENTS_FOR_FUNCTION = 35,
    ERR_BAD_ARGUMENTS = 36,
    ERR_UNKNOWN_ELEMENT_IN_AST = 37,
    ERR_CANNOT_PARSE_DATE = 38,
    ERR_CANNOT_PARSE_DATETIME = 41,
    ERR_NUMBER_OF_ARGUMENTS_DOESNT_MATCH = 42,
    ERR_ILLEGAL_TYPE_OF_ARGUMENT = 43,
    ERR_ILLEGAL_COLUMN = 44,
    ERR_UNKNOWN_FUNCTION = 46,
    ERR_UNKNOWN_IDENTIFIER = 47,
    ERR_NOT_IMPLEMENTED = 48,
    ERR_LOGICAL_ERROR = 49,
    ERR_UNKNOWN_TYPE = 50,
    ERR_TYPE_MISMATCH = 53,
    ERR_UNKNOWN_TABLE = 60,
    ERR_SYNTAX_ERROR = 62,
    ERR_UNKNOWN_AGGREGATE_FUNCTION = 63,
    ERR_CANNOT_CONVERT_TYPE = 70,
    ERR_CANNOT_OPEN_FILE = 76,
    ERR_CANNOT_READ_FROM_FILE_DESCRIPTOR = 74,
    ERR_CANNOT_WRITE_TO_FILE_DESCRIPTOR = 75,
    ERR_UNKNOWN_FORMAT = 73,
    ERR_FILE_DOESNT_EXIST = 107,
    ERR_UNKNOWN_SETTING = 115,
    ERR_INCORRECT_DATA = 117,
    ERR_ILLEGAL_DIVISION = 153,
    ERR_DECIMAL_OVERFLOW = 407,
    ERR_TOO_DEEP_AST = 167,
    ERR_CANNOT_COMPRESS = 260,
    ERR_CANNOT_DECOMPRESS = 271,
    ERR_UNKNOWN_DATABASE = 81,
    ERR_ILLEGAL_AGGREGATION = 184,
    ERR_NOT_AN_AGGREGATE = 215,
    ERR_MEMORY_LIMIT_EXCEEDED = 241,
    ERR_QUERY_WAS_CANCELLED = 394,
    ERR_CANNOT_EXTRACT_TABLE_STRUCTURE = 636,
    ERR_CANNOT_PARSE_NUMBER = 72,
    ERR_ARGUMENT_OUT_OF_BOUND = 69,
    ERR_TOO_LARGE_ARRAY_SIZE = 128,
    ERR_UNKNOWN_COMPRESSION_METHOD = 256,
    ERR_CANNOT_CLOSE_FILE = 77,
    ERR_SIZES_OF_ARRAYS_DONT_MATCH = 190,
    ERR_INVALID_JOIN_ON_EXPRESSION = 403,
    ERR_AMBIGUOUS_COLUMN_NAME = 352,
    ERR_DUPLICATE_COLUMN = 15,
    ERR_TOO_MANY_ROWS_OR_BYTES = 396,
    ERR_CANNOT_ALLOCATE_MEMORY = 173,
    ERR_ILLEGAL_SYNTAX_FOR_DATA_TYPE = 377,
    ERR_UNEXPECTED_AST_STRUCTURE = 223,
    ERR_QUERY_IS_PROHIBITED = 545,
    ERR_BAD_QUERY_PARAMETER = 457,
    ERR_UNKNOWN_QUERY_PARAMETER = 456,
    ERR_INCORRECT_QUERY = 80,
    ERR_TABLE_ALREADY_EXISTS = 57,
    ERR_VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE = 321,
    ERR_ILLEGAL_INDEX = 127,
    ERR_CANNOT_STAT = 400,
    ERR_EMPTY_DATA_PASSED = 92,
    ERR_INCORRECT_NUMBER_OF_COLUMNS = 10,
    ERR_CANNOT_PARSE_ESCAPE_SEQUENCE = 25,
    ERR_UNKNOWN_USER = 192,
    ERR_TIMEOUT_EXCEEDED = 159,
    ERR_NETWORK_ERROR = 210,
    ERR_NO_ELEMENTS_IN_CONFIG = 139,
    ERR_S3_ERROR = 499,
    ERR_UNEXPECTED_DATA_AFTER_PARSED_VALUE = 632,
    ERR_CANNOT_READ_ARRAY_FROM_TEXT = 130,
    ERR_PARAMETER_OUT_OF_BOUND = 12,
    ERR_TOO_LARGE_STRING_SIZE = 131,
    ERR_CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN = 349,
    ERR_NO_COMMON_TYPE = 386,
    ERR_FUNCTION_THROW_IF_VALUE_IS_NON_ZERO = 395,
    ERR_CANNOT_COMPILE_REGEXP = 427,
    ERR_UNKNOWN_ELEMENT_OF_ENUM = 691,
    /* storage, MergeTree */
    ERR_TOO_MANY_ROWS = 158,
    ERR_CHECKSUM_DOESNT_MATCH = 40,
    ERR_CORRUPTED_DATA = 246,
    ERR_UNKNOWN_CODEC = 432,
    ERR_ILLEGAL_CODEC_PARAMETER = 433,
    ERR_TOO_MANY_PARTS = 252,
    ERR_DATABASE_ALREADY_EXISTS = 82,
    ERR_UNKNOWN_STORAGE = 56,
    ERR_NOT_ENOUGH_SPACE = 243,
    ERR_CANNOT_FSYNC = 204,
    ERR_DIRECTORY_ALREADY_EXISTS = 84,
    ERR_RECEIVED_ERROR_FROM_REMOTE_IO_SERVER = 86,
    ERR_BAD_DATA_PART_NAME = 233,
    ERR_NO_SUCH_DATA_PART = 232,
    ERR_DUPLICATE_DATA_PART = 235,
    ERR_INVALID_PARTITION_VALUE = 248,
    ERR_CANNOT_UNLINK = 458,
    ERR_TABLE_IS_DROPPED = 218,
    ERR_DATABASE_NOT_EMPTY = 219,
    ERR_NO_SUCH_COLUMN_IN_TABLE = 16,
    ERR_THERE_IS_NO_COLUMN = 8,
    ERR_ABORTED = 236,
    ERR_CANNOT_ASSIGN_OPTIMIZE = 388,
    ERR_SUPPORT_IS_DISABLED = 344,
    ERR_EMPTY_LIST_OF_COLUMNS_PASSED = 90,
    ERR_CANNOT_CREATE_DIRECTORY = 172,
    ERR_ATOMIC_RENAME_FAIL = 521,
    ERR_CANNOT_TRUNCATE_FILE = 88,
    ERR_FILE_ALREADY_EXISTS = 504,
    ERR_DATA_TYPE_CANNOT_BE_USED_IN_TABLES = 370,
    ERR_UNKNOWN_PART_TYPE = 513,
    ERR_NOT_FOUND_EXPECTED_DATA_PART = 230,
    ERR_BAD_TYPE_OF_FIELD = 169,
    ERR_CANNOT_CREATE_FILE = 586,
    ERR_TABLE_IS_READ_ONLY = 242,
    ERR_CANNOT_DLOPEN = 443,
    ERR_ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER = 59,
    ERR_ILLEGAL_PREWHERE = 182,
    ERR_ILLEGAL_FINAL = 181,
    /* server */
    ERR_SOCKET_TIMEOUT = 209,
    ERR_READONLY = 164,
    ERR_TOO_MANY_SIMULTANEOUS_QUERIES = 202,
    ERR_AUTHENTICATION_FAILED = 516,
    ERR_REQUIRED_PASSWORD = 194,
    ERR_IP_ADDRESS_NOT_ALLOWED = 195,
    ERR_SESSION_NOT_FOUND = 372,
    ERR_SESSION_IS_LOCKED = 373,
    ERR_INVALID_SESSION_TIMEOUT = 374,
    ERR_HTTP_LENGTH_REQUIRED = 381,
    ERR_INVALID_CONFIG_PARAMETER = 318,
    ERR_CANNOT_LOAD_CONFIG = 347,
    ERR_UNKNOWN_ELEMENT_IN_CONFIG = 137,
    ERR_WRONG_PASSWORD = 193,
    ERR_DATABASE_ACCESS_DENIED = 291,
    ERR_BAD_DATABASE_FOR_TEMPORARY_TABLE = 442,
    ERR_QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING = 216,
    ERR_INCORRECT_ELEMENT_OF_SET = 124,
    ERR_TOO_BIG_AST = 168,
    ERR_UNKNOWN_TOTALS_MODE = 213,
    /* native protocol */
    ERR_UNKNOWN_PACKET_FROM_CLIENT = 100,
    ERR_UNEXPECTED_PACKET_FROM_CLIENT = 101,
    ERR_CLIENT_HAS_CONNECTED_TO_WRONG_PORT = 217,
};

#define ERR_MSG_MAX 4096

/* Records code and a printf-style message for the calling thread; always returns -1 so
 * callers can write `return err_set(...)`. */
int err_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prepends context ("while reading file 'x': ") to the current message; returns -1. */
int err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends context (" (in column 'x')") to the current message; returns -1. */
int err_suffix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int err_code(void);
const char *err_msg(void);
void err_clear(void);

/* ClickHouse's name for a code ("SYNTAX_ERROR"), or "UNKNOWN" for codes it has none for. */
const char *err_name(int code);
/* The code for a name, or -1. Accepts the numeric spelling too ("62"). */
int err_code_by_name(const char *name);

/* A copy of an error, to carry it from one thread to another. */
typedef struct err_saved {
    int code;
    char msg[ERR_MSG_MAX];
} err_saved;

void err_save(err_saved *dst);
int err_restore(const err_saved *src); /* sets the thread's error from src; returns -1 */

#endif
