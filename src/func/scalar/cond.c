/* Built-in scalar functions: cond family. */
#include "func/func.h"

void func_register_cond(void)
{
}
