/* Built-in scalar functions: array family. */
#include "func/func.h"

void func_register_array(void)
{
}
