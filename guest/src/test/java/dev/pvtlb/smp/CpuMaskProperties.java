package dev.pvtlb.smp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class CpuMaskProperties {
    @Property(tries = 300)
    void behavesLikeABitSet(@ForAll List<@IntRange(min = 0, max = 199) Integer> sets,
                            @ForAll List<@IntRange(min = 0, max = 199) Integer> clears,
                            @ForAll @IntRange(min = 0, max = 199) int but) {
        CpuMask m = new CpuMask(200);
        BitSet ref = new BitSet();
        sets.forEach(c -> { m.set(c); ref.set(c); });
        clears.forEach(c -> { m.clear(c); ref.clear(c); });
        assertEquals(ref.cardinality(), m.weight());
        int i = 0;
        for (int c = m.next(0); c >= 0; c = m.next(c + 1)) {
            assertEquals(ref.nextSetBit(i), c);
            i = c + 1;
        }
        assertEquals(-1, ref.nextSetBit(i) < 0 ? -1 : 0);
        int any = m.anyBut(but);
        if (any < 0) {
            BitSet r = (BitSet) ref.clone();
            r.clear(but);
            assertEquals(0, r.cardinality());
        } else {
            assertEquals(true, ref.get(any) && any != but);
        }
        CpuMask all = new CpuMask(200);
        all.setAll();
        assertEquals(true, m.subsetOf(all));
    }

    @Property(tries = 50)
    void topologyNumbersSiblingsAsLinuxDoes(@ForAll @IntRange(min = 1, max = 4) int sockets,
                                            @ForAll @IntRange(min = 1, max = 16) int cores,
                                            @ForAll @IntRange(min = 1, max = 2) int threads) {
        Topology t = new Topology(sockets, cores, threads);
        for (int c = 0; c < t.cpus(); c++) {
            int[] sib = t.siblingsOf(c);
            assertEquals(threads, sib.length);
            for (int s : sib) {
                assertEquals(t.coreOf(c), t.coreOf(s));
                assertEquals(t.socketOf(c), t.socketOf(s));
            }
        }
    }
}
