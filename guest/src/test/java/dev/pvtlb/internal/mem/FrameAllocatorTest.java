package dev.pvtlb.internal.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameAllocatorTest {
    @Test
    void freedFramesArePoisonedAndHandedOutAgainLifo() {
        try (PhysMem mem = new PhysMem(1 << 20)) {
            FrameAllocator a = new FrameAllocator(mem);
            assertEquals(255, a.freeFrames(), "256 frames, frame 0 reserved");
            int table = a.alloc(FrameState.PAGE_TABLE);
            mem.writeWord(table, 3, 0x1234);
            int gen = a.frames().generation(table);
            a.free(table);
            assertEquals(FrameState.FREE, a.frames().state(table));
            assertEquals(gen + 1, a.frames().generation(table));
            assertTrue(mem.isFilledWith(table, FrameAllocator.POISON));
            int data = a.alloc(FrameState.DATA);
            assertEquals(table, data, "the page-table page just freed is the next frame handed out");
            assertEquals(FrameAllocator.POISON, mem.readWord(data, 3), "user data is not modelled: a data frame is not zeroed");
            assertEquals(FrameState.DATA, a.frames().state(data));
            mem.writeWord(data, 5, 0x77);
            a.free(data);
            assertEquals(0x77, mem.readWord(data, 5), "a freed data frame is not poisoned: user data is not modelled");
            int again = a.alloc(FrameState.PAGE_TABLE);
            assertEquals(data, again);
            assertTrue(mem.isFilledWith(again, 0), "a page-table frame is zeroed on allocation");
        }
    }

    @Test
    void resetAfterAPartialRunHandsFramesOutAsAFreshAllocatorDoes() {
        try (PhysMem mem = new PhysMem(1 << 20)) {
            FrameAllocator a = new FrameAllocator(mem);
            int[] fresh = new int[6];
            for (int i = 0; i < fresh.length; i++) {
                fresh[i] = a.alloc(FrameState.DATA);
            }
            assertEquals(List.of(1, 2, 3, 4, 5, 6), Arrays.stream(fresh).boxed().toList());
            a.free(fresh[2]);
            a.free(fresh[4]);
            a.alloc(FrameState.PAGE_TABLE);
            a.reset();
            assertEquals(255, a.freeFrames());
            assertEquals(0, a.allocations());
            for (int pfn = 1; pfn < mem.frames(); pfn++) {
                assertEquals(FrameState.FREE, a.frames().state(pfn), "state of " + pfn);
                assertEquals(0, a.frames().generation(pfn), "generation of " + pfn);
            }
            for (int want = 1; want <= 8; want++) {
                assertEquals(want, a.alloc(FrameState.DATA), "after a reset frames come out 1, 2, 3, ... again");
            }
            a.reset();
            a.reset();
            assertEquals(1, a.alloc(FrameState.PAGE_TABLE), "a reset of a reset allocator changes nothing");
        }
    }

    @Test
    void exhaustionNamesTheSegmentSize() {
        try (PhysMem mem = new PhysMem(1 << 20)) {
            FrameAllocator a = new FrameAllocator(mem);
            for (int i = 0; i < 255; i++) {
                a.alloc(FrameState.DATA);
            }
            ModelException e = assertThrows(ModelException.class, () -> a.alloc(FrameState.DATA));
            assertEquals("guest out of memory: all 255 frames of the 1 MiB segment are in use (raise memory in the scenario)",
                    e.getMessage());
        }
    }

    @Test
    void doubleFreeAndBadSizesAreRefused() {
        try (PhysMem mem = new PhysMem(1 << 20)) {
            FrameAllocator a = new FrameAllocator(mem);
            int f = a.alloc(FrameState.DATA);
            a.free(f);
            assertThrows(IllegalStateException.class, () -> a.free(f));
            assertThrows(IllegalArgumentException.class, () -> a.free(0));
        }
        assertThrows(ModelException.class, () -> new PhysMem(12345));
        assertThrows(ModelException.class, () -> new PhysMem(-4096));
    }
}
