package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Litmus tests of {@link StoreBuffer}: every interleaving of two tiny programs, with the buffer
 * drained at every possible point, gives the set of outcomes each memory model allows.
 */
class StoreBufferLitmusTest {
    static final int X = 0;
    static final int Y = 1;

    /** One instruction: STORE loc=1, LOAD loc into the thread's register, or a barrier. */
    record Insn(char op, int loc) {}

    static Insn st(int loc) {
        return new Insn('S', loc);
    }

    static Insn ld(int loc) {
        return new Insn('L', loc);
    }

    static Insn mfence() {
        return new Insn('F', -1);
    }

    static Insn locked(int loc) {
        return new Insn('X', loc);
    }

    /** Outcomes "r0 r1" of two threads over all interleavings and drain points. */
    static Set<String> outcomes(MemoryModel m, List<Insn> t0, List<Insn> t1) {
        Set<String> out = new TreeSet<>();
        explore(m, t0, t1, new ArrayList<>(), out);
        return out;
    }

    /** State is replayed from the history of moves, so no copying of buffers is needed. */
    private static void explore(MemoryModel m, List<Insn> t0, List<Insn> t1, List<int[]> moves, Set<String> out) {
        // Replay the moves to get the buffers' current state.
        long[] mem = new long[2];
        StoreBuffer[] sb = {new StoreBuffer(m, mem), new StoreBuffer(m, mem)};
        long[] r = new long[2];
        int[] pc = {0, 0};
        for (int[] mv : moves) {
            apply(mv, sb, r, pc, t0, t1);
        }
        boolean any = false;
        for (int t = 0; t < 2; t++) {
            List<Insn> prog = t == 0 ? t0 : t1;
            if (pc[t] < prog.size()) {
                any = true;
                moves.add(new int[] {t, 0});
                explore(m, t0, t1, moves, out);
                moves.remove(moves.size() - 1);
            }
            for (int i = 0; i < sb[t].pending(); i++) {
                if (m == MemoryModel.TSO && i > 0) {
                    break;
                }
                any = true;
                moves.add(new int[] {t, 1, i});
                explore(m, t0, t1, moves, out);
                moves.remove(moves.size() - 1);
            }
        }
        if (!any) {
            out.add(r[0] + " " + r[1]);
        }
    }

    private static void apply(int[] mv, StoreBuffer[] sb, long[] r, int[] pc, List<Insn> t0, List<Insn> t1) {
        int t = mv[0];
        if (mv[1] == 1) {
            sb[t].drainAt(mv[2]);
            return;
        }
        Insn in = (t == 0 ? t0 : t1).get(pc[t]++);
        switch (in.op()) {
            case 'S' -> sb[t].store(in.loc(), 1);
            case 'L' -> r[t] = sb[t].load(in.loc());
            case 'F' -> sb[t].fence();
            default -> sb[t].lockedExchange(in.loc(), 1);
        }
    }

    @Test
    void storeBufferingUnderScNeverReadsBothZero() {
        assertEquals(Set.of("0 1", "1 0", "1 1"), outcomes(MemoryModel.SC, List.of(st(X), ld(Y)), List.of(st(Y), ld(X))));
    }

    @Test
    void storeBufferingUnderTsoReordersTheStoreAfterTheLoad() {
        assertEquals(Set.of("0 0", "0 1", "1 0", "1 1"),
                outcomes(MemoryModel.TSO, List.of(st(X), ld(Y)), List.of(st(Y), ld(X))));
    }

    @Test
    void anMfenceOnBothSidesForbidsIt() {
        assertEquals(Set.of("0 1", "1 0", "1 1"),
                outcomes(MemoryModel.TSO, List.of(st(X), mfence(), ld(Y)), List.of(st(Y), mfence(), ld(X))));
    }

    @Test
    void aLockedOperationForbidsItToo() {
        // switch_mm's locked mm_cpumask op against flush_tlb_mm_range's locked tlb_gen increment.
        assertEquals(Set.of("0 1", "1 0", "1 1"),
                outcomes(MemoryModel.TSO, List.of(locked(X), ld(Y)), List.of(locked(Y), ld(X))));
    }

    @Test
    void oneFenceIsNotEnough() {
        // The smp_mb() of switch_mm_irqs_off() needs its partner: without the flusher's barrier SB reorders.
        assertTrue(outcomes(MemoryModel.TSO, List.of(st(X), mfence(), ld(Y)), List.of(st(Y), ld(X))).contains("0 0"));
    }

    @Test
    void aCpuReadsItsOwnBufferedStore() {
        long[] mem = new long[2];
        StoreBuffer sb = new StoreBuffer(MemoryModel.TSO, mem);
        sb.store(X, 7);
        assertEquals(7, sb.load(X));
        assertEquals(0, sb.visible(X));
        sb.drainOldest();
        assertEquals(7, sb.visible(X));
    }

    @Test
    void tsoDrainsInOrderArmInAnyOrderButPerLocationInOrder() {
        long[] mem = new long[2];
        StoreBuffer tso = new StoreBuffer(MemoryModel.TSO, mem);
        tso.store(X, 1);
        tso.store(Y, 1);
        assertThrows(IllegalArgumentException.class, () -> tso.drainAt(1));
        long[] m2 = new long[2];
        StoreBuffer arm = new StoreBuffer(MemoryModel.ARM, m2);
        arm.store(X, 1);
        arm.store(Y, 1);
        arm.drainAt(1);
        assertEquals(0, m2[X]);
        assertEquals(1, m2[Y]);
        arm.store(Y, 2);
        arm.store(Y, 3);
        arm.drainAt(2); // the store of 3 asks to go, the older store of 2 to Y goes first
        assertEquals(2, m2[Y]);
    }

    @Test
    void messagePassingUnderArmCanSeeTheFlagBeforeTheData() {
        // data=1; flag=1 || r=flag; d=data: arm lets flag drain first, TSO does not.
        assertTrue(mp(MemoryModel.ARM));
        assertFalse(mp(MemoryModel.TSO));
    }

    private static boolean mp(MemoryModel m) {
        long[] mem = new long[2];
        StoreBuffer w = new StoreBuffer(m, mem);
        w.store(X, 1); // data
        w.store(Y, 1); // flag
        try {
            w.drainAt(1);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return mem[Y] == 1 && mem[X] == 0;
    }

    @Test
    void underArmATlbiWithoutADsbDoesNotComplete() {
        StoreBuffer arm = new StoreBuffer(MemoryModel.ARM, new long[2]);
        arm.tlbi(0x1000);
        assertFalse(arm.tlbiComplete(0x1000));
        arm.fence(); // a DMB orders memory accesses but does not complete a TLBI
        assertFalse(arm.tlbiComplete(0x1000));
        arm.dsb();
        assertTrue(arm.tlbiComplete(0x1000));
        StoreBuffer tso = new StoreBuffer(MemoryModel.TSO, new long[2]);
        tso.tlbi(0x1000); // INVLPG completes at once
        assertTrue(tso.tlbiComplete(0x1000));
    }
}
