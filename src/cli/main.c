#include "base/err.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "shale: the command line is being written\n");
    return 1;
}
