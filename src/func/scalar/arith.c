/* Built-in scalar functions: arith family. */
#include "func/func.h"

void func_register_arith(void)
{
}
