/** Deterministic discrete-event engine. */
package dev.pvtlb.sim;
