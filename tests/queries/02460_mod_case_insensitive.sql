-- MOD is modulo in any letter case; modulo itself is case-sensitive.
SELECT MOD(7, 3), mod(7, 3), Mod(-7, 3), toTypeName(MOD(7.5, 2)), MOD(7.5, 2);
SELECT number, MOD(number, 3) FROM numbers(4);
SELECT MODULO(7, 3); -- { serverError UNKNOWN_FUNCTION }
