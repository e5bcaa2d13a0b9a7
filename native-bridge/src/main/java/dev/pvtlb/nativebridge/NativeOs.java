package dev.pvtlb.nativebridge;

import java.util.Locale;
import java.util.Objects;

/**
 * The libc calls pvtlb makes on the real host, behind one facade with two backends:
 * {@link FfmNativeOs} (java.lang.foreign, the default) and {@link JnaNativeOs}.
 *
 * <p>Errors. A call the kernel rejects throws {@link NativeCallException} naming the call,
 * its arguments and errno. A call that would be unsafe to pass on never reaches libc:
 * a negative length throws {@code NativeCallException} (EINVAL, {@code rejectedInJava()});
 * a range outside the mapping throws {@link IndexOutOfBoundsException}; a mapping already
 * unmapped throws {@link IllegalStateException}. Arguments that are wrong but harmless
 * (length 0, an address not page aligned, a CPU that is not online) go to the kernel, so
 * the errno reported is the kernel's own.
 *
 * <p>Implementations are thread safe.
 */
public interface NativeOs {

    /** "ffm" or "jna". */
    String name();

    /**
     * {@code mmap(NULL, length, prot, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)}: a fresh private
     * anonymous region of {@code length} bytes rounded up to whole pages.
     */
    Mapping map(long length, Protection protection);

    /** {@code mprotect(mapping.address() + offset, length, prot)}; offset must be page aligned. */
    void protect(Mapping mapping, long offset, long length, Protection protection);

    /** {@code madvise(mapping.address() + offset, length, advice)}; offset must be page aligned. */
    void advise(Mapping mapping, long offset, long length, Advice advice);

    /** {@code munmap} of the whole mapping; a second call does nothing. Same as {@link Mapping#close()}. */
    void unmap(Mapping mapping);

    /**
     * {@code sched_setaffinity(0, sizeof(cpu_set_t), {cpu})}: pins the calling thread to
     * one CPU. CPUs outside cpu_set_t (below 0 or from 1024 up) are rejected in Java.
     */
    void setAffinity(int cpu);

    /** {@code sched_getcpu()}: the CPU the calling thread runs on right now. */
    int currentCpu();

    /** {@code sysconf(_SC_NPROCESSORS_ONLN)}. */
    int onlineCpus();

    /** {@code sysconf(_SC_PAGESIZE)}. */
    long pageSize();

    /** {@code getpid()}: cannot fail; kept as the cheapest real syscall, for per-call cost. */
    int getpid();

    /**
     * Chooses a backend: "ffm", "jna", or "auto". Auto is FFM when this module may call
     * restricted methods ({@code --enable-native-access}), JNA otherwise: without that
     * flag every FFM downcall link prints a warning, or fails under
     * {@code --illegal-native-access=deny}. (In the default warn mode the JDK enables
     * native access for a module after the first restricted call it warned about, so an
     * "auto" after that, JNA's own library load included, picks FFM.)
     *
     * @throws IllegalArgumentException for any other preference
     */
    static NativeOs select(String preference) {
        Objects.requireNonNull(preference, "preference");
        return switch (preference.trim().toLowerCase(Locale.ROOT)) {
            case "ffm" -> new FfmNativeOs();
            case "jna" -> new JnaNativeOs();
            case "auto" -> auto();
            default -> throw new IllegalArgumentException(
                    "unknown native backend '" + preference + "': expected ffm, jna or auto");
        };
    }

    private static NativeOs auto() {
        // On the class path this is the unnamed module, the one --enable-native-access=ALL-UNNAMED names.
        if (NativeOs.class.getModule().isNativeAccessEnabled()) {
            try {
                return new FfmNativeOs();
            } catch (IllegalCallerException refused) {
                // native access revoked some other way; JNA needs none of the FFM restricted methods
            }
        }
        return new JnaNativeOs();
    }
}
