#!/bin/sh
# Regenerates the FFM bindings in src/main/java/dev/pvtlb/nativebridge/ffm/generated.
#
# jextract is NOT installed on the pvtlb build machines, and this script has not been run
# there: the committed sources were written by hand in the shape jextract 22 generates.
# Run it where jextract is on PATH (https://jdk.java.net/jextract/) and review the diff.
#
# jextract has no option for Linker.Option.captureCallState("errno"), so after generating
# the script rewrites each handle of a function that can fail to capture errno and adds the
# capture segment as the first wrapper parameter (getpid is left alone: it cannot fail and
# serves as the per-call cost probe), and marks each class @SuppressWarnings("restricted").
# Review that diff too.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out="$here/src/main/java"
pkg=dev.pvtlb.nativebridge.ffm.generated
dir="$out/$(echo "$pkg" | tr . /)"
inc=${INCLUDE_DIR:-/usr/include}

if ! command -v jextract >/dev/null 2>&1; then
    echo "jextract not found on PATH; nothing regenerated (it is not installed on this machine)." >&2
    exit 1
fi

# One jextract run per header, so each gets its own header class (mman_h, sched_h, unistd_h).
jextract --output "$out" --target-package "$pkg" --header-class-name mman_h \
    --include-function mmap --include-function munmap \
    --include-function mprotect --include-function madvise \
    --include-constant PROT_NONE --include-constant PROT_READ --include-constant PROT_WRITE \
    --include-constant MAP_SHARED --include-constant MAP_PRIVATE --include-constant MAP_ANONYMOUS \
    --include-constant MAP_FAILED \
    --include-constant MADV_NORMAL --include-constant MADV_RANDOM --include-constant MADV_SEQUENTIAL \
    --include-constant MADV_WILLNEED --include-constant MADV_DONTNEED \
    "$inc/sys/mman.h"

jextract --output "$out" --target-package "$pkg" --header-class-name sched_h \
    -D _GNU_SOURCE \
    --include-function sched_setaffinity --include-function sched_getcpu \
    --include-typedef cpu_set_t --include-constant CPU_SETSIZE \
    "$inc/sched.h"

jextract --output "$out" --target-package "$pkg" --header-class-name unistd_h \
    --include-function sysconf --include-function getpid \
    --include-constant _SC_PAGESIZE --include-constant _SC_NPROCESSORS_CONF \
    --include-constant _SC_NPROCESSORS_ONLN \
    "$inc/unistd.h"

# Linking downcalls is what these classes are for: silence -Xlint:restricted, which the
# build turns into an error through -Werror.
for f in "$dir"/*.java; do
    sed -i 's/^public class /@SuppressWarnings("restricted")\npublic class /' "$f"
done

# errno capture (see the header comment).
capture() { # file function...
    file=$1; shift
    cls=$(basename "$file" .java)
    sed -i "/^    static final SymbolLookup SYMBOL_LOOKUP/i\\
    // Added by regenerate-bindings.sh: jextract has no errno option.\\
    static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState(\"errno\");\\
" "$file"
    for fn in "$@"; do
        # the holder's handle: link with the capture option
        sed -i "/private static class $fn {/,/^    }/ s/downcallHandle(ADDR, DESC)/downcallHandle(ADDR, DESC, CAPTURE_ERRNO)/" "$file"
        # the wrapper: capture segment first, passed first to invokeExact
        sed -i -e "s/^\(    public static [A-Za-z]* $fn(\)/\1MemorySegment errno\$capture, /" \
               -e "/public static [A-Za-z]* $fn(MemorySegment errno/,/^    }/ s/invokeExact(/invokeExact(errno\$capture, /" \
               -e "s/errno\$capture, )/errno\$capture)/g" "$file"
    done
    echo "errno capture added to $cls: $*"
}
capture "$dir/mman_h.java" mmap munmap mprotect madvise
capture "$dir/sched_h.java" sched_setaffinity sched_getcpu
capture "$dir/unistd_h.java" sysconf
