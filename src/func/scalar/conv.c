/* Built-in scalar functions: conv family. */
#include "func/func.h"

void func_register_conv(void)
{
}
