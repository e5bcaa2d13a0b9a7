package dev.pvtlb.internal.kernel;

/** A task's scheduling state. */
public enum TaskState { RUNNABLE, RUNNING, SLEEPING, EXITED }
