/* peak_rss: run a program and print its peak resident memory, measured right.

   Usage: peak_rss PROGRAM [ARG...]; the program's output passes through, its exit status
   is this one's, and a last line "peak_rss KIB" goes to standard error.

   Why: Linux carries a process's peak resident size (ru_maxrss) across execve from the
   memory it had before, so a program started by a Python script (fork or vfork, then
   exec) reports at least the script's own resident size: a 12 MiB program looked like a
   15 MiB one in benchmarks/counting_sets.py. This launcher is small: the program it
   forks starts from this launcher's size (about 1 MiB), below anything measured, and
   wait4 gives the program's own peak. benchmarks/counting_sets.py builds it with cc. */

#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: peak_rss PROGRAM [ARG...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peak_rss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror("peak_rss: exec");
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0) {
        perror("peak_rss: wait4");
        return 2;
    }
    fprintf(stderr, "peak_rss %ld\n", usage.ru_maxrss);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
