package dev.pvtlb.nativebridge.jna;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Pointer;

/**
 * JNA mapping of the libc calls pvtlb makes (Linux, LP64: size_t, off_t and long are Java
 * longs). Each call that can fail declares {@link LastErrorException}: JNA clears errno
 * before the call and throws with errno if it is set afterwards. Constants as in glibc's
 * x86_64 and arm64 headers.
 */
public interface CLibrary extends Library {
    int PROT_NONE = 0x0;
    int PROT_READ = 0x1;
    int PROT_WRITE = 0x2;
    int MAP_PRIVATE = 0x02;
    int MAP_ANONYMOUS = 0x20;
    int MADV_NORMAL = 0;
    int MADV_RANDOM = 1;
    int MADV_SEQUENTIAL = 2;
    int MADV_WILLNEED = 3;
    int MADV_DONTNEED = 4;
    int CPU_SETSIZE = 1024;
    int _SC_PAGESIZE = 30;
    int _SC_NPROCESSORS_ONLN = 84;

    /** {@code void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset)} */
    Pointer mmap(Pointer addr, long len, int prot, int flags, int fd, long offset) throws LastErrorException;

    /** {@code int munmap(void *addr, size_t len)} */
    int munmap(Pointer addr, long len) throws LastErrorException;

    /** {@code int mprotect(void *addr, size_t len, int prot)} */
    int mprotect(Pointer addr, long len, int prot) throws LastErrorException;

    /** {@code int madvise(void *addr, size_t len, int advice)} */
    int madvise(Pointer addr, long len, int advice) throws LastErrorException;

    /** {@code int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *mask)}; mask as unsigned long[16]. */
    int sched_setaffinity(int pid, long cpusetsize, long[] mask) throws LastErrorException;

    /** {@code int sched_getcpu(void)} */
    int sched_getcpu() throws LastErrorException;

    /** {@code long sysconf(int name)} */
    long sysconf(int name) throws LastErrorException;

    /**
     * {@code pid_t getpid(void)}. No LastErrorException: getpid cannot fail, and the
     * per-call cost comparison with FFM should time the bare call.
     */
    int getpid();
}
