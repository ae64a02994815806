/* Built-in scalar functions: hash family. */
#include "func/func.h"

void func_register_hash(void)
{
}
