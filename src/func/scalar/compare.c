/* Built-in scalar functions: compare family. */
#include "func/func.h"

void func_register_compare(void)
{
}
