/*
 * csum bench and csum tune: the lab (bench/). It measures implementations through the public
 * table API.
 */
#include "cli.h"
#include "lab.h"

int cmd_bench(int argc, char **argv)
{
    return lab_main(argc, argv);
}

int cmd_tune(int argc, char **argv)
{
    return lab_tune_main(argc, argv);
}
