package dev.pvtlb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A call's wait goes under the state its last target had at the send: halted before descheduled, IRQs off apart. */
class CostPartTest {
    @Test
    void theLastTargetsStateNamesTheWait() {
        assertEquals(CostPart.WAIT_LAST_RUNNING, CostPart.waitOn(false, true, false));
        assertEquals(CostPart.WAIT_LAST_IRQS_OFF, CostPart.waitOn(false, true, true));
        assertEquals(CostPart.WAIT_LAST_DESCHEDULED, CostPart.waitOn(false, false, false));
        assertEquals(CostPart.WAIT_LAST_DESCHEDULED, CostPart.waitOn(false, false, true));
        // A spinlock waiter in pv_wait(): halted with IRQs off, whether or not its thread holds a pCPU.
        assertEquals(CostPart.WAIT_LAST_HALTED_IRQS_OFF, CostPart.waitOn(true, false, true));
        assertEquals(CostPart.WAIT_LAST_HALTED_IRQS_OFF, CostPart.waitOn(true, true, true));
        assertEquals(CostPart.WAIT_LAST_HALTED, CostPart.waitOn(true, true, false));
    }
}
