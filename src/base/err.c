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
#define ERR_NAME_ENTRY(name, code) {code, #name},
    ERR_CODES(ERR_NAME_ENTRY)
#undef ERR_NAME_ENTRY
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
