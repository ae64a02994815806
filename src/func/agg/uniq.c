/* Built-in aggregate functions: uniq family. */
#include "func/agg.h"

void agg_register_uniq(void)
{
}
