/**
 * The host probe: CPU model and topology, hypervisor, how remote TLB flushes are done, and
 * TLB counters, read from /proc, /sys and the kernel log under an injectable root so that
 * captured machines replay as test fixtures.
 */
package dev.pvtlb.nativebridge.probe;
