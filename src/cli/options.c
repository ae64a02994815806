/* Command-line option splitting shared by `shale local` and `shale client` (see options.h). */
#include "cli/options.h"

#include "base/err.h"

#include <stdio.h>
#include <string.h>

int cli_fail_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "Code: 36. DB::Exception: %s%s. (BAD_ARGUMENTS)\n", msg, arg ? arg : "");
    return ERR_BAD_ARGUMENTS;
}

int cli_next_option(int argc, char **argv, int *i, const cli_short *shorts, bool (*is_flag)(const char *name),
                    char name[CLI_NAME_MAX], const char **val)
{
    const char *a = argv[*i];
    *val = NULL;
    if (strncmp(a, "--", 2) == 0) {
        const char *eq = strchr(a, '=');
        size_t nlen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (nlen >= CLI_NAME_MAX)
            return cli_fail_usage("Option name is too long: ", a);
        memcpy(name, a + 2, nlen);
        name[nlen] = 0;
        *val = eq ? eq + 1 : NULL;
    } else if (a[0] == '-' && a[1] && !a[2]) {
        const cli_short *s = shorts;
        while (s->letter && s->letter != a[1])
            s++;
        if (!s->letter)
            return cli_fail_usage("Unknown option ", a);
        snprintf(name, CLI_NAME_MAX, "%s", s->name);
    } else {
        return cli_fail_usage("Unexpected positional argument ", a);
    }
    if (!is_flag(name) && !*val) {
        if (*i + 1 >= argc)
            return cli_fail_usage("Option requires a value: ", a);
        *val = argv[++*i];
    }
    return 0;
}
