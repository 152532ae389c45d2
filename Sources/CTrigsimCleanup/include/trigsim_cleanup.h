#ifndef TRIGSIM_CLEANUP_H
#define TRIGSIM_CLEANUP_H

/// A process-wide registry of the temporary files trigsim is writing, removed
/// when SIGHUP, SIGINT or SIGTERM ends the process.
///
/// Written in C because the removal runs inside a signal handler, where only
/// async-signal-safe calls are allowed: the handler reads preallocated C
/// strings through lock-free atomics and calls unlink(2), nothing else (no
/// locks, no allocation, no Swift runtime).

/// Registers a copy of `path` and returns that copy, which stays registered
/// until `trigsim_temporary_release`. The copy may be changed in place (it is
/// what `mkostemp` fills in), so the registry always holds the name the file
/// has. Returns NULL, with errno set to ENOMEM, when memory runs out.
char *trigsim_temporary_reserve(const char *path);

/// Creates the file `path_template` names, its last six characters `XXXXXX`
/// replaced by an unpredictable unique suffix (mkostemp(3): O_CREAT|O_EXCL|
/// O_CLOEXEC, mode 0600), and returns its descriptor, or -1 with errno set.
/// Here because Swift's Glibc module does not export the GNU mkostemp.
int trigsim_create_temporary(char *path_template);

/// Unregisters `registered` (a pointer `trigsim_temporary_reserve` returned)
/// and frees it: call it once the file was renamed into place or removed.
void trigsim_temporary_release(char *registered);

/// For each of SIGHUP, SIGINT and SIGTERM whose action is still the default,
/// installs a handler that removes every registered file and then ends the
/// process by the same signal (so a shell sees 129, 130 or 143). A signal the
/// process ignores (nohup, a background job) stays ignored; a handled signal
/// the calling thread blocks is unblocked (call it before starting threads).
/// Returns 0, or -1 with errno set when sigaction fails.
int trigsim_remove_temporaries_on_signals(void);

#endif
