package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/**
 * munmap() of a MAP_SHARED | MAP_ANONYMOUS mapping drops the last reference to its shmem file, and
 * the task tears the file down before the call returns (shmem.release.ns); a private mapping has no
 * file, and a mapping whose file another VMA still maps leaves it be.
 */
class ShmemReleaseTest {
    /** Virtual time to fault in 4 pages of region 0 and unmap {@code unmapPages} of them, on one CPU. */
    private static long elapsed(boolean sharedAnonymous, int unmapPages) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(1).seed(1).build());
        long a = Scripted.region(0);
        if (sharedAnonymous) {
            s.mm.insertSharedAnonymousVma(a, a + 4 * Scripted.PAGE, true);
        } else {
            s.mm.insertVma(a, a + 4 * Scripted.PAGE, true, false);
        }
        s.spawn(0, Scripted.populate(a, 4), s.munmap(a, unmapPages));
        s.run();
        assertEquals(4, s.count(Counter.PAGE_FAULTS));
        return s.guest.engine().now();
    }

    @Test
    void theLastUnmapOfASharedAnonymousMappingTearsItsFileDown() {
        assertEquals(1000, elapsed(true, 4) - elapsed(false, 4), "shmem.release.ns, once");
        // Half the mapping unmapped: the other half still maps the file.
        assertEquals(0, elapsed(true, 2) - elapsed(false, 2));
    }
}
