/* Built-in aggregate functions: basic family. */
#include "func/agg.h"

void agg_register_basic(void)
{
}
