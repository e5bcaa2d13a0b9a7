package dev.pvtlb.internal.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.pvtlb.internal.sim.GraphCopy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A branch's copy of a cache shares its tags and journals its writes: while the branch runs, the
 * copy behaves as a cache with the original's contents would; after the rollback the original
 * behaves as if the branch had never run. Packed (at most 8 ways), whole and per-set layouts.
 */
class SetAssociativeCacheBranchTest {
    /** Hits (1) and misses (0) of {@code n} accesses drawn from {@code seed} over {@code keys} keys. */
    private static List<Integer> trace(SetAssociativeCache c, long seed, int n, int keys) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(c.access(r.nextInt(keys) * 64L) ? 1 : 0);
        }
        return out;
    }

    @Test
    void aBranchSeesTheOriginalsTagsAndLeavesThemAsTheyWere() {
        int[][] shapes = {{512, 8}, {4096, 16}, {1 << 17, 16}}; // packed, whole, per-set rows
        for (int[] shape : shapes) {
            SetAssociativeCache original = new SetAssociativeCache(shape[0], shape[1]);
            SetAssociativeCache twin = new SetAssociativeCache(shape[0], shape[1]);
            assertEquals(trace(original, 1, 20_000, shape[0] * 2), trace(twin, 1, 20_000, shape[0] * 2));

            GraphCopy.Copy<SetAssociativeCache> branch = GraphCopy.branch(original, List.of());
            SetAssociativeCache probe = new SetAssociativeCache(shape[0], shape[1]);
            trace(probe, 1, 20_000, shape[0] * 2);
            List<Integer> inBranch = trace(branch.root(), 2, 20_000, shape[0] * 2);
            assertEquals(trace(probe, 2, 20_000, shape[0] * 2), inBranch, shape[0] + " lines: the branch starts from the original's tags");
            branch.rollBack();

            List<Integer> after = trace(original, 3, 20_000, shape[0] * 2);
            assertEquals(trace(twin, 3, 20_000, shape[0] * 2), after, shape[0] + " lines: the original as if no branch had run");
            assertNotEquals(0, after.stream().mapToInt(Integer::intValue).sum(), "some hits");
        }
    }
}
