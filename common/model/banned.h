/*
 * banned - functions that are easy to misuse and have safer replacements
 * here (snprintf, memcpy with known sizes, spaa_parse_u64/i64).  Using one
 * is a compile error, as in git's banned.h.
 */
#ifndef SPAA_BANNED_H
#define SPAA_BANNED_H

#define SPAA_BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) SPAA_BANNED(strcpy)
#undef strcat
#define strcat(x, y) SPAA_BANNED(strcat)
#undef sprintf
#define sprintf(...) SPAA_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) SPAA_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) SPAA_BANNED(strtok)
#undef atoi
#define atoi(x) SPAA_BANNED(atoi)
#undef atol
#define atol(x) SPAA_BANNED(atol)
#undef gets
#define gets(x) SPAA_BANNED(gets)

#endif
