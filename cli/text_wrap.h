/*
 * Word-wrapped output (text_wrap.c), for the lists of `csum impls` and `csum bench --list`,
 * whose descriptions come from the implementation table and are too long for one line.
 */
#ifndef CSUM_TEXT_WRAP_H
#define CSUM_TEXT_WRAP_H

/*
 * `text` on stdout, word-wrapped to `width` columns from column `col` of the current line (0:
 * a new line), every further line starting with `indent` spaces, a space before its first
 * word if `space` (and it does not start a line). Lines break at spaces and after commas (a
 * plan's ranges, a list of lengths), never inside a word: one longer than a line (a path) is
 * printed whole. Returns the column where it stopped, without ending the line.
 */
int text_put_wrapped(int width, const char *text, int indent, int col, int space);

/* text_put_wrapped(), ending the line. */
void text_print_wrapped(int width, const char *text, int indent, int col);

#endif
