package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A virtualized run's HTML page says where the vCPUs' time went under the host; a bare-metal page has no such section. */
class OvercommitBreakdownTest {
    @Test
    void eightVcpusOnFourPcpusShowTheirStolenTimeAndTheHostsYields(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("k.html");
        MainTest.Result r = pvtlb("run", "munmap-storm", "--backend", "kvm", "--set", "vcpus=8", "--set", "pcpus=4", "--set", "ops=5",
                "--seed", "1", "--quiet", "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("<h2>KVM overcommit breakdown</h2>"), page);
        // Two vCPUs per pCPU, but the threads sleep on mmap_lock (155 times) and their vCPUs halt,
        // leaving their pCPUs to the others: 13% of the vCPU time is stolen; 20 of the 30 PLE exits
        // ended in a directed yield.
        assertTrue(page.contains("<tr><td>stolen</td><td>12.58%</td>"), page);
        assertTrue(page.contains("<tr><td>ple_exits per vCPU-ms</td><td>1.15</td>"), page);
        assertTrue(page.contains("<tr><td>directed_yields per vCPU-ms</td><td>0.7669</td>"), page);
        assertTrue(page.contains("<tr><td>csd_lock_wait per remote flush, ns</td><td>2005</td>"), page);
        // The call-function IPIs waited 4.3 us each at their targets (a halted target's thread is
        // switched back in, 2.5 us, before its VM entry): longer than a flush's wait,
        // since a flush overlaps its own INVLPGs with the IPIs in flight and waits once for several
        // targets. No spinlock is contended; the lock_spin is the mmap_lock writers' optimistic spin.
        assertTrue(page.contains("until the handler runs (vCPU descheduled, IRQs off), ns</td><td>4284</td>"), page);
        assertTrue(page.contains("<tr><td>lock_spin</td><td>0.1149%</td>"), page);
        // The stolen time over 19 preemptions. A vCPU woken from HLT that waits for a busy pCPU adds stolen
        // time without a preemption, so the row is a bound, not the preempted vCPUs' own mean wait.
        assertTrue(page.contains("a woken vCPU's wait adds to it)</td><td>172705</td>"), page);
        // What the flushes waited on, by the state of the target that answered last when the IPI went out:
        // 80% of the waiting was for a vCPU halted in its idle loop (woken by the IPI), none for a descheduled one.
        assertTrue(page.contains("whose last target was halted (idle) at the send</td><td>80.38%</td>"), page);
        assertTrue(page.contains("whose last target was running at the send</td><td>19.62%</td>"), page);
        assertTrue(page.contains("whose last target was descheduled at the send</td><td>0%</td>"), page);
    }

    @Test
    void aBareMetalRunHasNone(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("n.html");
        MainTest.Result r = pvtlb("run", "munmap-storm", "--set", "ops=5", "--seed", "1", "--quiet", "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        assertFalse(Files.readString(html).contains("overcommit"));
    }
}
