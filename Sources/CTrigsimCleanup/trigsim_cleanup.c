#define _GNU_SOURCE  // mkostemp
#include "trigsim_cleanup.h"

#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Only lock-free atomics may be used in a signal handler.
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "pointer atomics must be lock-free");
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "int atomics must be lock-free");

enum { slots_per_block = 64 };

/// A fixed block of registry slots; blocks are chained when every slot is in
/// use (one slot per file being written at once) and never freed, so the
/// handler can walk them at any moment.
struct slot_block {
  _Atomic(char *) slots[slots_per_block];
  _Atomic(struct slot_block *) next;
};

static struct slot_block first_block;
/// Serialises reserve and release (never taken by the handler).
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
/// Set by the handler before it reads a slot. A release that sees it leaves
/// the string allocated, because the handler may be reading it: both sides
/// use sequentially consistent operations (store, then load), so either the
/// handler sees the emptied slot or the release sees the flag.
static atomic_int removal_started;

static struct slot_block *new_block(void) {
  struct slot_block *block = malloc(sizeof *block);
  if (block == NULL) return NULL;
  for (int index = 0; index < slots_per_block; index++) atomic_init(&block->slots[index], NULL);
  atomic_init(&block->next, NULL);
  return block;
}

char *trigsim_temporary_reserve(const char *path) {
  size_t size = strlen(path) + 1;
  char *copy = malloc(size);
  if (copy == NULL) {
    errno = ENOMEM;
    return NULL;
  }
  memcpy(copy, path, size);
  pthread_mutex_lock(&registry_lock);
  struct slot_block *block = &first_block;
  for (;;) {
    for (int index = 0; index < slots_per_block; index++) {
      if (atomic_load(&block->slots[index]) == NULL) {
        atomic_store(&block->slots[index], copy);
        pthread_mutex_unlock(&registry_lock);
        return copy;
      }
    }
    struct slot_block *next = atomic_load(&block->next);
    if (next == NULL) {
      next = new_block();
      if (next == NULL) {
        pthread_mutex_unlock(&registry_lock);
        free(copy);
        errno = ENOMEM;
        return NULL;
      }
      atomic_store(&block->next, next);
    }
    block = next;
  }
}

int trigsim_create_temporary(char *path_template) { return mkostemp(path_template, O_CLOEXEC); }

void trigsim_temporary_release(char *registered) {
  if (registered == NULL) return;
  pthread_mutex_lock(&registry_lock);
  for (struct slot_block *block = &first_block; block != NULL; block = atomic_load(&block->next)) {
    for (int index = 0; index < slots_per_block; index++) {
      if (atomic_load(&block->slots[index]) == registered) atomic_store(&block->slots[index], NULL);
    }
  }
  pthread_mutex_unlock(&registry_lock);
  if (atomic_load(&removal_started) == 0) free(registered);
}

/// unlink(2) and raise(3) are async-signal-safe; nothing else is called.
static void remove_temporaries_then_end(int signal_number) {
  atomic_store(&removal_started, 1);
  for (struct slot_block *block = &first_block; block != NULL; block = atomic_load(&block->next)) {
    for (int index = 0; index < slots_per_block; index++) {
      char *path = atomic_load(&block->slots[index]);
      if (path != NULL) unlink(path);
    }
  }
  // SA_RESETHAND restored the default action on entry; the signal is blocked
  // while this handler runs, so it is delivered, and ends the process, as the
  // handler returns.
  raise(signal_number);
}

int trigsim_remove_temporaries_on_signals(void) {
  const int signals[] = {SIGHUP, SIGINT, SIGTERM};
  const int count = (int)(sizeof signals / sizeof signals[0]);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = remove_temporaries_then_end;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  for (int index = 0; index < count; index++) sigaddset(&action.sa_mask, signals[index]);
  sigset_t installed;
  sigemptyset(&installed);
  for (int index = 0; index < count; index++) {
    struct sigaction current;
    if (sigaction(signals[index], NULL, &current) != 0) return -1;
    if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;
    if (sigaction(signals[index], &action, NULL) != 0) return -1;
    sigaddset(&installed, signals[index]);
  }
  // A launcher may start the process with these signals blocked (a child
  // inherits its parent thread's mask); they would then wait forever instead
  // of ending the run. Threads started later inherit this thread's mask.
  errno = pthread_sigmask(SIG_UNBLOCK, &installed, NULL);
  return errno == 0 ? 0 : -1;
}
