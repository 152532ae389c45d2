#ifndef TRIGSIM_CFILESYSTEM_SHIM_H
#define TRIGSIM_CFILESYSTEM_SHIM_H
// fstatfs(2) and its f_type magic number, which Swift's Glibc module does not
// import: the track readers refuse files on kernel pseudo file systems (/proc, /sys).
#if __has_include(<sys/vfs.h>)
#include <sys/vfs.h>
#else
#include <sys/param.h>
#include <sys/mount.h>
#endif
#endif
