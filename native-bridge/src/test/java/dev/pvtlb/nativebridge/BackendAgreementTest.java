package dev.pvtlb.nativebridge;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** FFM and JNA make the same calls: they must report the same results and the same failures. */
class BackendAgreementTest {
    private final NativeOs ffm = NativeOs.select("ffm");
    private final NativeOs jna = NativeOs.select("jna");

    @Test
    void sameAnswersFromBothBackends() throws Throwable {
        assertEquals(ffm.pageSize(), jna.pageSize());
        assertEquals(ffm.onlineCpus(), jna.onlineCpus());
        assertEquals(ffm.getpid(), jna.getpid());
        assertEquals(outcomes(ffm), outcomes(jna));
        List<String> ffmAffinity = new ArrayList<>();
        List<String> jnaAffinity = new ArrayList<>();
        Backends.onFreshThread(() -> ffmAffinity.add(affinityOutcome(ffm)));
        Backends.onFreshThread(() -> jnaAffinity.add(affinityOutcome(jna)));
        assertEquals(ffmAffinity, jnaAffinity);
    }

    /** One line per scenario; addresses are left out since each backend maps its own. */
    private static List<String> outcomes(NativeOs os) {
        long page = os.pageSize();
        List<String> out = new ArrayList<>();
        out.add(outcome(os, o -> o.map(0, Protection.READ_WRITE)));
        out.add(outcome(os, o -> o.map(-1, Protection.READ_WRITE)));
        try (Mapping m = os.map(4 * page, Protection.READ_WRITE)) {
            for (int i = 0; i < 4; i++) {
                m.write(i, (byte) (i + 1));
            }
            out.add(outcome(os, o -> { o.protect(m, 1, page, Protection.READ); return null; }));
            out.add(outcome(os, o -> { o.advise(m, 1, page, Advice.DONTNEED); return null; }));
            out.add(outcome(os, o -> { o.protect(m, 0, 0, Protection.READ); return null; }));
            os.advise(m, page, page, Advice.DONTNEED);
            os.protect(m, 2 * page, page, Protection.READ);
            StringBuilder pages = new StringBuilder("pages:");
            for (int i = 0; i < 4; i++) {
                pages.append(' ').append(m.read(i)).append('/').append(m.protection(i));
            }
            out.add(pages.toString());
        }
        return out;
    }

    private static String affinityOutcome(NativeOs os) {
        os.setAffinity(0);
        return os.currentCpu() + " " + outcome(os, o -> { o.setAffinity(1000); return null; });
    }

    private static String outcome(NativeOs os, Function<NativeOs, Object> call) {
        try {
            Object result = call.apply(os);
            if (result instanceof Mapping m) {
                m.close();
                return "mapped " + m.byteSize();
            }
            return "ok";
        } catch (NativeCallException e) {
            return e.call() + " " + e.errnoName() + (e.rejectedInJava() ? " (java)" : " (kernel)");
        }
    }
}
