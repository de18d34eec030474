/* SPDX-License-Identifier: GPL-2.0 */
#ifndef NFTLAB_JSON_OUT_H
#define NFTLAB_JSON_OUT_H

/* Print s on stdout as a JSON string (quotes, backslashes and control
 * bytes escaped).
 */
void json_str(const char *s);

#endif
