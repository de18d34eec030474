// SPDX-License-Identifier: GPL-2.0
/* JSON output shared by the commands that print --json. */
#include <stdio.h>

#include "json_out.h"

void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}
