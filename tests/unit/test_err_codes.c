/* base/err: every error code shale raises is unique, has a unique name, and carries the
 * number ClickHouse gives the same name (ch_error_codes.inc, from ClickHouse itself), so
 * clients and `serverError` hints see ClickHouse's codes. */
#include "base/err.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    int code;
} code_name;

static const code_name shale_codes[] = {
#define SHALE_ENTRY(name, code) {#name, code},
    ERR_CODES(SHALE_ENTRY)
#undef SHALE_ENTRY
};

static const code_name ch_codes[] = {
#define CH_ERR(name, code) {#name, code},
#include "ch_error_codes.inc"
#undef CH_ERR
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
    for (size_t i = 0; i < COUNT(shale_codes); i++) {
        const code_name *s = &shale_codes[i];
        for (size_t j = i + 1; j < COUNT(shale_codes); j++) {
            if (shale_codes[j].code == s->code || strcmp(shale_codes[j].name, s->name) == 0) {
                fprintf(stderr, "duplicate: %s = %d and %s = %d\n", s->name, s->code, shale_codes[j].name,
                        shale_codes[j].code);
                CHECK(!"codes and names are unique");
            }
        }
        const code_name *ch = NULL;
        for (size_t j = 0; j < COUNT(ch_codes); j++)
            if (strcmp(ch_codes[j].name, s->name) == 0)
                ch = &ch_codes[j];
        if (!ch) {
            fprintf(stderr, "%s = %d: ClickHouse has no code of that name\n", s->name, s->code);
            CHECK(!"every name is ClickHouse's");
        } else if (ch->code != s->code) {
            fprintf(stderr, "%s = %d: ClickHouse's number is %d\n", s->name, s->code, ch->code);
            CHECK(!"numbers are ClickHouse's");
        }
        /* the table err_name / err_code_by_name read is the same list */
        CHECK_STR(err_name(s->code), s->name);
        CHECK(err_code_by_name(s->name) == s->code);
    }
    CHECK(err_code_by_name("62") == 62);
    CHECK(err_code_by_name("NO_SUCH_ERROR_NAME") == -1);
    CHECK_STR(err_name(999999), "UNKNOWN");
    CHECK(ERR_SYNTAX_ERROR == 62 && ERR_NOT_FOUND_COLUMN_IN_BLOCK == 10 && ERR_INCORRECT_NUMBER_OF_COLUMNS == 7);
    return check_done("err_codes");
}
