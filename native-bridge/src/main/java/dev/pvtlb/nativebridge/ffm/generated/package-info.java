/**
 * FFM bindings for the libc calls pvtlb makes, in the shape jextract generates: one header
 * class per C header ({@code mman_h}, {@code sched_h}, {@code unistd_h}), one holder class
 * per function with its descriptor, address and handle, macros as static getters, the C
 * prototype in each method's Javadoc.
 *
 * <p>Not hand-maintained: {@code native-bridge/regenerate-bindings.sh} rewrites this
 * package. The one departure from plain jextract output is errno: every function that can
 * fail is linked with {@code Linker.Option.captureCallState("errno")} and takes the capture
 * segment as its first parameter, because errno read after the downcall returns may
 * already have been overwritten by the JVM. The hand-written API lives one package up.
 */
package dev.pvtlb.nativebridge.ffm.generated;
