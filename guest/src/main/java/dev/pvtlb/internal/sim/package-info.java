/** Deterministic discrete-event engine. */
package dev.pvtlb.internal.sim;
