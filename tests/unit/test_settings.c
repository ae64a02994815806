/* The settings registry: every ClickHouse setting known with its type and default, values
 * checked as ClickHouse checks them, aliases, and the three classes (implemented, accepted
 * without effect, default only). NOT_IMPLEMENTED cannot be a tests/queries reference
 * (ClickHouse runs those statements), so the classes are asserted here. */
#include <string.h>
#include "base/err.h"
#include "exec/settings.h"

#include "check.h"

static int set_code(settings *s, const char *name, const char *value)
{
    err_clear();
    return settings_set(s, name, value) ? err_code() : 0;
}

int main(void)
{
    settings *s = settings_new();
    CHECK(settings_count() >= 1721);

    const setting_def *d = settings_def_at(settings_index("load_balancing"));
    CHECK_STR(d->type, "LoadBalancing");
    CHECK_STR(settings_text_at(s, settings_index("load_balancing")), "random");

    /* Implemented: any valid value takes effect. */
    CHECK(set_code(s, "transform_null_in", "true") == 0 && settings_bool(s, "transform_null_in"));
    CHECK_STR(settings_str(s, "transform_null_in"), "1");

    /* Accepted without effect: speed, caches, replication. */
    CHECK(set_code(s, "optimize_move_to_prewhere", "0") == 0);
    CHECK(set_code(s, "use_query_cache", "1") == 0);
    CHECK(set_code(s, "max_bytes_before_external_group_by", "1000000") == 0);
    CHECK(set_code(s, "parallel_replicas_for_non_replicated_merge_tree", "1") == 0);
    CHECK(set_code(s, "allow_suspicious_low_cardinality_types", "1") == 0);
    CHECK(set_code(s, "load_balancing", "in_order") == 0);

    /* Known at the default only: the default is accepted, another value is not. */
    CHECK(set_code(s, "aggregate_functions_null_for_empty", "0") == 0);
    CHECK(set_code(s, "aggregate_functions_null_for_empty", "1") == ERR_NOT_IMPLEMENTED);
    CHECK(set_code(s, "output_format_pretty_grid_charset", "UTF-8") == 0);
    CHECK(set_code(s, "output_format_pretty_grid_charset", "ASCII") == 0); /* implemented */
    CHECK(set_code(s, "max_rows_to_group_by", "10") == ERR_NOT_IMPLEMENTED);
    /* use_skip_indexes_* tune speed, except exact_mode = 0: ClickHouse's FINAL may miss rows */
    CHECK(set_code(s, "use_skip_indexes_if_final", "0") == 0);
    CHECK(set_code(s, "use_skip_indexes_if_final_exact_mode", "0") == ERR_NOT_IMPLEMENTED);
    /* A feature switch on by default cannot be turned off. */
    CHECK(set_code(s, "allow_ddl", "1") == 0);
    CHECK(set_code(s, "allow_ddl", "0") == ERR_NOT_IMPLEMENTED);
    /* Obsolete settings are accepted and ignored by ClickHouse itself. */
    CHECK(set_code(s, "allow_experimental_window_functions", "1") == 0);

    /* Values checked as ClickHouse checks the type. */
    CHECK(set_code(s, "transform_null_in", "2") == ERR_CANNOT_CONVERT_TYPE);
    CHECK(set_code(s, "transform_null_in", "yes") == ERR_CANNOT_PARSE_BOOL);
    CHECK(set_code(s, "max_block_size", "-1") == ERR_CANNOT_CONVERT_TYPE);
    CHECK(set_code(s, "max_block_size", "0") == ERR_BAD_ARGUMENTS);
    CHECK(set_code(s, "max_block_size", "x") == ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED);
    CHECK(set_code(s, "load_balancing", "nowhere") == ERR_UNKNOWN_LOAD_BALANCING);
    CHECK(set_code(s, "totals_mode", "BEFORE_HAVING") == ERR_UNKNOWN_TOTALS_MODE);
    CHECK(set_code(s, "send_logs_level", "Fatal") == ERR_BAD_ARGUMENTS);
    CHECK(set_code(s, "format_csv_delimiter", "ab") == ERR_SIZE_OF_FIXED_STRING_DOESNT_MATCH);
    CHECK(set_code(s, "additional_table_filters", "x") == ERR_CANNOT_PARSE_INPUT_ASSERTION_FAILED);
    CHECK(set_code(s, "no_such_setting", "1") == ERR_UNKNOWN_SETTING);

    /* A set of enumeration values is written back without spaces. */
    CHECK(set_code(s, "join_algorithm", "hash, direct") == 0);
    CHECK_STR(settings_str(s, "join_algorithm"), "hash,direct");
    CHECK(set_code(s, "join_algorithm", "hash, nope") == ERR_UNKNOWN_JOIN);

    /* An alias reads and writes the setting it names. */
    CHECK(settings_index("enable_analyzer") == settings_index("allow_experimental_analyzer"));
    CHECK(set_code(s, "max_insert_block_size_rows", "1000") == 0);
    CHECK(settings_int(s, "max_insert_block_size") == 1000);

    /* names looked up through a reused buffer: the accessors' per-thread cache is keyed by
     * the name's address and must notice that the text at that address changed */
    char name[64];
    CHECK(set_code(s, "max_threads", "3") == 0 && set_code(s, "max_block_size", "777") == 0);
    for (int round = 0; round < 3; round++) {
        strcpy(name, "max_threads");
        CHECK(settings_int(s, name) == 3);
        strcpy(name, "max_block_size");
        CHECK(settings_int(s, name) == 777);
    }
    /* an alias reads the setting it names, also from the cache */
    CHECK(set_code(s, "allow_experimental_analyzer", "0") == 0);
    CHECK(!settings_bool(s, "enable_analyzer") && !settings_bool(s, "enable_analyzer"));

    settings_free(s);
    return check_done("settings");
}
