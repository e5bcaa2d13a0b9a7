/** JNA interface mapping of libc, the backend used where FFM native access is not enabled. */
package dev.pvtlb.nativebridge.jna;
