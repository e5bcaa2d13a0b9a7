package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A twin runs the host kernel's mmap_lock and zero page, whatever the workload. */
class WorkloadTwinTest {
    @Test
    void faultsTakeTheirVmaLockFromLinux64AndTheMmapLockBefore() {
        assertEquals("vma", WorkloadTwin.mmapLockOf("6.18.44-fc-v1098"));
        assertEquals("vma", WorkloadTwin.mmapLockOf("6.4.0"));
        assertEquals("vma", WorkloadTwin.mmapLockOf("7.0.1-arch1"));
        assertEquals("rwsem", WorkloadTwin.mmapLockOf("6.3.13"));
        assertEquals("rwsem", WorkloadTwin.mmapLockOf("5.15.0-91-generic"));
        assertEquals("rwsem", WorkloadTwin.mmapLockOf(""), "a release it cannot read: the older kernel's lock");
        assertEquals("rwsem", WorkloadTwin.mmapLockOf("99999999999.1"), "no number overflows");
    }

    @Test
    void everyTwinAddsTheHostKernelsSwitchesAfterItsOwnParameters() {
        for (String name : WorkloadTwin.NAMES) {
            List<String> keys = List.copyOf(WorkloadTwin.of(name, 2, "5.10.0").params().keySet());
            assertEquals(List.of("mmapLock", "zeroPage"), keys.subList(keys.size() - 2, keys.size()), name);
            assertEquals("rwsem", WorkloadTwin.of(name, 2, "5.10.0").params().get("mmapLock"), name);
            assertEquals("vma", WorkloadTwin.of(name, 2, "6.18.44").params().get("mmapLock"), name);
        }
        assertEquals("{threads=2, pages=64, ops=50, workset=128, accesses=2000, prefault=true, mmapLock=vma, zeroPage=on}",
                WorkloadTwin.of("munmap-storm", 2, "6.18.44").params().toString());
    }
}
