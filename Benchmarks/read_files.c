/* The floor of reading a calendar folder (Benchmarks/calendar_scale.py): every file of a folder opened, read
   whole and closed, one after the other, as plain C does it. Prints the bytes read.
   Usage: read_files FOLDER */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: read_files FOLDER\n"); return 2; }
    DIR *folder = opendir(argv[1]);
    if (!folder) { perror(argv[1]); return 1; }
    char path[4096], buffer[65536];
    long total = 0;
    struct dirent *entry;
    while ((entry = readdir(folder))) {
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], entry->d_name);
        int file = open(path, O_RDONLY | O_CLOEXEC);
        if (file < 0) { perror(path); return 1; }
        ssize_t count;
        while ((count = read(file, buffer, sizeof buffer)) > 0) total += count;
        close(file);
    }
    closedir(folder);
    printf("%ld\n", total);
    return 0;
}
