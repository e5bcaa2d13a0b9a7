package dev.pvtlb.nativebridge.probe;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class CpuListTest {

    @Test
    void parsesRangesAndSingles() {
        assertArrayEquals(new int[] {0, 1, 2, 3, 8, 10, 11}, CpuList.parse("0-3,8,10-11\n"));
        assertArrayEquals(new int[] {0, 4}, CpuList.parse("0,4"));
        assertArrayEquals(new int[0], CpuList.parse(""));
    }

    @Test
    void formatsLikeTheKernel() {
        assertEquals("0-1", CpuList.format(new int[] {1, 0}));
        assertEquals("0,4", CpuList.format(new int[] {4, 0}));
        assertEquals("0-3,8,10-11", CpuList.format(new int[] {11, 10, 8, 3, 2, 1, 0}));
        assertEquals("5", CpuList.normalize(" 5 "));
    }
}
