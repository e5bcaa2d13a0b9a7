package dev.pvtlb.pvops;

import net.bytebuddy.asm.Advice;

/**
 * Byte Buddy advice woven around every op of a traced pv_ops class: records the call in the
 * tracepoint stream before the backend runs (like a tracepoint at the top of the pv op).
 */
final class PvOpsTraceAdvice {
    private PvOpsTraceAdvice() {}

    @Advice.OnMethodEnter
    static void enter(@Advice.This PvOps self, @Advice.Origin("#m") String method, @Advice.AllArguments Object[] args) {
        self.traceCall(method, args);
    }
}
