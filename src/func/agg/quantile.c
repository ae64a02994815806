/* Built-in aggregate functions: quantile family. */
#include "func/agg.h"

void agg_register_quantile(void)
{
}
