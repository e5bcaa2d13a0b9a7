package dev.pvtlb.internal.sched;

/** A task's scheduling state. */
public enum TaskState { RUNNABLE, RUNNING, SLEEPING, EXITED }
