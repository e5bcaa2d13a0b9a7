package dev.pvtlb.nativebridge;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ErrnoTest {

    @Test
    void namesAndStrerrorText() {
        assertEquals("EINVAL (Invalid argument)", Errno.describe(22));
        assertEquals("ENOMEM (Cannot allocate memory)", Errno.describe(12));
        assertEquals("errno 4095", Errno.describe(4095));
    }

    @Test
    void exceptionNamesCallArgumentsAndErrno() {
        NativeCallException e = NativeCallException.failed("munmap", "addr=0x7f0000001000, len=0", 22);
        assertEquals("munmap(addr=0x7f0000001000, len=0) failed: EINVAL (Invalid argument)", e.getMessage());
        assertEquals("EINVAL", e.errnoName());
        NativeCallException r = NativeCallException.rejected("mmap", "len=-1", Errno.EINVAL, "negative length");
        assertEquals("mmap(len=-1) rejected before the call: EINVAL (Invalid argument): negative length", r.getMessage());
        assertEquals("errno 4095", NativeCallException.failed("x", "", 4095).errnoName());
    }
}
