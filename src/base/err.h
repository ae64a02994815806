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

/* ClickHouse error codes (src/Common/ErrorCodes.cpp), the subset shale raises: one list
 * gives both the ERR_ names and err_name()'s table, so a code cannot lack its name;
 * tests/unit/test_err_codes.c checks each is unique and has ClickHouse's number. */
#define ERR_CODES(X) \
    X(UNSUPPORTED_METHOD, 1) \
    X(CANNOT_PARSE_TEXT, 6) \
    X(NUMBER_OF_COLUMNS_DOESNT_MATCH, 20) \
    X(CANNOT_PARSE_INPUT_ASSERTION_FAILED, 27) \
    X(CANNOT_PARSE_QUOTED_STRING, 26) \
    X(ATTEMPT_TO_READ_AFTER_EOF, 32) \
    X(CANNOT_READ_ALL_DATA, 33) \
    X(TOO_MANY_ARGUMENTS_FOR_FUNCTION, 34) \
    X(TOO_FEW_ARGUMENTS_FOR_FUNCTION, 35) \
    X(BAD_ARGUMENTS, 36) \
    X(UNKNOWN_ELEMENT_IN_AST, 37) \
    X(CANNOT_PARSE_DATE, 38) \
    X(CANNOT_PARSE_DATETIME, 41) \
    X(NUMBER_OF_ARGUMENTS_DOESNT_MATCH, 42) \
    X(ILLEGAL_TYPE_OF_ARGUMENT, 43) \
    X(ILLEGAL_COLUMN, 44) \
    X(UNKNOWN_FUNCTION, 46) \
    X(UNKNOWN_IDENTIFIER, 47) \
    X(NOT_IMPLEMENTED, 48) \
    X(LOGICAL_ERROR, 49) \
    X(UNKNOWN_TYPE, 50) \
    X(EMPTY_LIST_OF_COLUMNS_QUERIED, 51) \
    X(TYPE_MISMATCH, 53) \
    X(UNKNOWN_TABLE, 60) \
    X(SYNTAX_ERROR, 62) \
    X(UNKNOWN_AGGREGATE_FUNCTION, 63) \
    X(CANNOT_CONVERT_TYPE, 70) \
    X(CANNOT_OPEN_FILE, 76) \
    X(CANNOT_READ_FROM_FILE_DESCRIPTOR, 74) \
    X(CANNOT_WRITE_TO_FILE_DESCRIPTOR, 75) \
    X(UNKNOWN_FORMAT, 73) \
    X(FILE_DOESNT_EXIST, 107) \
    X(UNKNOWN_SETTING, 115) \
    X(INCORRECT_DATA, 117) \
    X(ILLEGAL_DIVISION, 153) \
    X(DECIMAL_OVERFLOW, 407) \
    X(TOO_DEEP_AST, 167) \
    X(CANNOT_COMPRESS, 270) \
    X(CANNOT_DECOMPRESS, 271) \
    X(UNKNOWN_DATABASE, 81) \
    X(ILLEGAL_AGGREGATION, 184) \
    X(NOT_AN_AGGREGATE, 215) \
    X(QUERY_CACHE_USED_WITH_NONDETERMINISTIC_FUNCTIONS, 704) \
    X(FUNCTION_ALREADY_EXISTS, 609) \
    X(CANNOT_DROP_FUNCTION, 610) \
    X(CANNOT_CREATE_RECURSIVE_FUNCTION, 611) \
    X(MEMORY_LIMIT_EXCEEDED, 241) \
    X(QUERY_WAS_CANCELLED, 394) \
    X(CANNOT_EXTRACT_TABLE_STRUCTURE, 636) \
    X(CANNOT_APPEND_TO_FILE, 641) \
    X(CANNOT_PARSE_NUMBER, 72) \
    X(ARGUMENT_OUT_OF_BOUND, 69) \
    X(TOO_LARGE_ARRAY_SIZE, 128) \
    X(UNKNOWN_COMPRESSION_METHOD, 89) \
    X(CANNOT_CLOSE_FILE, 77) \
    X(SIZES_OF_ARRAYS_DONT_MATCH, 190) \
    X(INVALID_JOIN_ON_EXPRESSION, 403) \
    X(INVALID_WITH_FILL_EXPRESSION, 475) \
    X(AMBIGUOUS_COLUMN_NAME, 352) \
    X(DUPLICATE_COLUMN, 15) \
    X(TOO_MANY_ROWS_OR_BYTES, 396) \
    X(CANNOT_ALLOCATE_MEMORY, 173) \
    X(ILLEGAL_SYNTAX_FOR_DATA_TYPE, 377) \
    X(UNEXPECTED_AST_STRUCTURE, 223) \
    X(QUERY_IS_PROHIBITED, 392) \
    X(BAD_QUERY_PARAMETER, 457) \
    X(UNKNOWN_QUERY_PARAMETER, 456) \
    X(INCORRECT_QUERY, 80) \
    X(TABLE_ALREADY_EXISTS, 57) \
    X(CANNOT_GET_CREATE_TABLE_QUERY, 390) \
    X(VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE, 321) \
    X(ILLEGAL_INDEX, 127) \
    X(CANNOT_STAT, 400) \
    X(EMPTY_DATA_PASSED, 92) \
    X(INCORRECT_NUMBER_OF_COLUMNS, 7) \
    X(CANNOT_PARSE_ESCAPE_SEQUENCE, 25) \
    X(UNKNOWN_USER, 192) \
    X(TIMEOUT_EXCEEDED, 159) \
    X(NETWORK_ERROR, 210) \
    X(NO_ELEMENTS_IN_CONFIG, 139) \
    X(S3_ERROR, 499) \
    X(UNEXPECTED_DATA_AFTER_PARSED_VALUE, 632) \
    X(CANNOT_READ_ARRAY_FROM_TEXT, 130) \
    X(PARAMETER_OUT_OF_BOUND, 12) \
    X(TOO_LARGE_STRING_SIZE, 131) \
    X(CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN, 349) \
    X(NO_COMMON_TYPE, 386) \
    X(FUNCTION_THROW_IF_VALUE_IS_NON_ZERO, 395) \
    X(CANNOT_COMPILE_REGEXP, 427) \
    X(UNKNOWN_ELEMENT_OF_ENUM, 691) \
    /* storage, MergeTree */ \
    X(TOO_MANY_ROWS, 158) \
    X(SET_SIZE_LIMIT_EXCEEDED, 191) \
    X(CHECKSUM_DOESNT_MATCH, 40) \
    X(CORRUPTED_DATA, 246) \
    X(UNKNOWN_CODEC, 432) \
    X(ILLEGAL_CODEC_PARAMETER, 433) \
    X(TOO_MANY_PARTS, 252) \
    X(DATABASE_ALREADY_EXISTS, 82) \
    X(UNKNOWN_STORAGE, 56) \
    X(NOT_ENOUGH_SPACE, 243) \
    X(CANNOT_FSYNC, 204) \
    X(DIRECTORY_ALREADY_EXISTS, 84) \
    X(RECEIVED_ERROR_FROM_REMOTE_IO_SERVER, 86) \
    X(BAD_DATA_PART_NAME, 233) \
    X(NO_SUCH_DATA_PART, 232) \
    X(DUPLICATE_DATA_PART, 235) \
    X(INVALID_PARTITION_VALUE, 248) \
    X(CANNOT_UNLINK, 458) \
    X(TABLE_IS_DROPPED, 218) \
    X(DATABASE_NOT_EMPTY, 219) \
    X(NO_SUCH_COLUMN_IN_TABLE, 16) \
    X(THERE_IS_NO_COLUMN, 8) \
    X(ABORTED, 236) \
    X(CANNOT_ASSIGN_OPTIMIZE, 388) \
    X(SUPPORT_IS_DISABLED, 344) \
    X(EMPTY_LIST_OF_COLUMNS_PASSED, 90) \
    X(CANNOT_CREATE_DIRECTORY, 172) \
    X(ATOMIC_RENAME_FAIL, 521) \
    X(CANNOT_TRUNCATE_FILE, 88) \
    X(FILE_ALREADY_EXISTS, 504) \
    X(DATA_TYPE_CANNOT_BE_USED_IN_TABLES, 370) \
    X(UNKNOWN_PART_TYPE, 513) \
    X(NOT_FOUND_EXPECTED_DATA_PART, 230) \
    X(BAD_TYPE_OF_FIELD, 169) \
    X(BAD_GET, 170) \
    X(CANNOT_CREATE_FILE, 586) \
    X(TABLE_IS_READ_ONLY, 242) \
    X(CANNOT_DLOPEN, 375) \
    X(ILLEGAL_TYPE_OF_COLUMN_FOR_FILTER, 59) \
    X(SAMPLING_NOT_SUPPORTED, 141) \
    X(TOO_DEEP_RECURSION, 306) \
    X(QUERY_IS_NOT_SUPPORTED_IN_MATERIALIZED_VIEW, 397) \
    X(ILLEGAL_PREWHERE, 182) \
    X(ILLEGAL_FINAL, 181) \
    /* server */ \
    X(SOCKET_TIMEOUT, 209) \
    X(READONLY, 164) \
    X(TOO_MANY_SIMULTANEOUS_QUERIES, 202) \
    X(AUTHENTICATION_FAILED, 516) \
    X(REQUIRED_PASSWORD, 194) \
    X(IP_ADDRESS_NOT_ALLOWED, 195) \
    X(SESSION_NOT_FOUND, 372) \
    X(SESSION_IS_LOCKED, 373) \
    X(INVALID_SESSION_TIMEOUT, 374) \
    X(HTTP_LENGTH_REQUIRED, 381) \
    X(INVALID_CONFIG_PARAMETER, 318) \
    X(CANNOT_LOAD_CONFIG, 347) \
    X(UNKNOWN_ELEMENT_IN_CONFIG, 137) \
    X(WRONG_PASSWORD, 193) \
    X(DATABASE_ACCESS_DENIED, 291) \
    X(BAD_DATABASE_FOR_TEMPORARY_TABLE, 442) \
    X(QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING, 216) \
    X(INCORRECT_ELEMENT_OF_SET, 124) \
    X(INCORRECT_RESULT_OF_SCALAR_SUBQUERY, 125) \
    X(TOO_BIG_AST, 168) \
    X(UNKNOWN_TOTALS_MODE, 213) \
    /* BACKUP / RESTORE */ \
    X(BACKUP_ALREADY_EXISTS, 598) \
    X(BACKUP_NOT_FOUND, 599) \
    X(BACKUP_DAMAGED, 601) \
    X(WRONG_BASE_BACKUP, 603) \
    X(BACKUP_ENTRY_NOT_FOUND, 605) \
    X(CANNOT_RESTORE_TABLE, 608) \
    X(CANNOT_SCHEDULE_TASK, 439) \
    /* native protocol */ \
    X(UNKNOWN_PACKET_FROM_CLIENT, 99) \
    X(UNKNOWN_PACKET_FROM_SERVER, 100) \
    X(UNEXPECTED_PACKET_FROM_CLIENT, 101) \
    X(UNEXPECTED_PACKET_FROM_SERVER, 102) \
    X(DNS_ERROR, 198) \
    X(ALL_CONNECTION_TRIES_FAILED, 279) \
    X(NO_REMOTE_SHARD_AVAILABLE, 519) \
    X(CLIENT_HAS_CONNECTED_TO_WRONG_PORT, 217) \
    X(SIZE_OF_FIXED_STRING_DOESNT_MATCH, 19) \
    X(UNKNOWN_OVERFLOW_MODE, 145) \
    X(UNKNOWN_LOAD_BALANCING, 212) \
    X(UNKNOWN_DISTRIBUTED_PRODUCT_MODE, 283) \
    X(UNKNOWN_JOIN, 418) \
    X(CANNOT_PARSE_BOOL, 467) \
    X(CANNOT_PARSE_UUID, 376) \
    X(CANNOT_PARSE_IPV4, 675) \
    X(CANNOT_PARSE_IPV6, 676) \
    X(UNKNOWN_MYSQL_DATATYPES_SUPPORT_LEVEL, 543) \
    X(UNKNOWN_UNION, 557) \
    X(ALIAS_REQUIRED, 206) \
    /* ALTER and mutations */ \
    X(CANNOT_UPDATE_COLUMN, 420) \
    X(ALTER_OF_COLUMN_IS_FORBIDDEN, 524) \
    X(NOT_FOUND_COLUMN_IN_BLOCK, 10) \
    X(UNFINISHED, 341) \
    /* clusters */ \
    X(CLUSTER_DOESNT_EXIST, 701) \
    X(UNKNOWN_PROTOCOL, 480) \
    X(STORAGE_REQUIRES_PARAMETER, 55) \
    X(UNKNOWN_POLICY, 478) \
    X(UNKNOWN_DATABASE_ENGINE, 336) \
    X(ZERO_ARRAY_OR_TUPLE_INDEX, 135) \
    X(UNION_ALL_RESULT_STRUCTURES_MISMATCH, 258) \
    X(INCOMPATIBLE_TYPE_OF_JOIN, 264) \
    X(DEADLOCK_AVOIDED, 473) \
    X(SUSPICIOUS_TYPE_FOR_LOW_CARDINALITY, 455) \
    X(INVALID_IDENTIFIER, 703) \
    X(INTERSECT_OR_EXCEPT_RESULT_STRUCTURES_MISMATCH, 596) \
    X(EXPECTED_ALL_OR_DISTINCT, 558)

enum {
    ERR_OK = 0,
#define ERR_ENUM_ENTRY(name, code) ERR_##name = code,
    ERR_CODES(ERR_ENUM_ENTRY)
#undef ERR_ENUM_ENTRY
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
