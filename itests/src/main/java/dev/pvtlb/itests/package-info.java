/**
 * pvtlb's integration tests live under src/test: per-backend container tests (failsafe, *IT)
 * that run cli's shaded jar in FROM-scratch images built at test time, and unit tests (surefire,
 * *Test) of the pieces that assemble those images. This module ships no code of its own.
 */
package dev.pvtlb.itests;
