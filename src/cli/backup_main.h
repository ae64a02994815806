/* `shale backup ...`: the command line of the backup layer (src/backup/). */
#ifndef SHALE_CLI_BACKUP_MAIN_H
#define SHALE_CLI_BACKUP_MAIN_H

/* argv[0] is "backup"; returns the process exit code. */
int backup_main(int argc, char **argv);

#endif
