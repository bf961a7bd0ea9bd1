/* Word-wrapped output: see text_wrap.h. */
#include "text_wrap.h"

#include <stdio.h>
#include <string.h>

int text_put_wrapped(int width, const char *text, int indent, int col, int space)
{
    while (*text) {
        size_t word = strcspn(text, " ,");
        word += text[word] == ',';
        if (col > indent && col + space + (int)word > width) {
            putchar('\n');
            col = 0;
        }
        if (col == 0)
            col = printf("%*s", indent, "");
        else if (space)
            col += printf(" ");
        col += printf("%.*s", (int)word, text);
        text += word;
        space = *text == ' ';
        text += strspn(text, " ");
    }
    return col;
}

void text_print_wrapped(int width, const char *text, int indent, int col)
{
    if (text_put_wrapped(width, text, indent, col, 0))
        putchar('\n');
}
