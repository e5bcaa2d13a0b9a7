package dev.pvtlb.sched;

/** A task's scheduling state. */
public enum TaskState { RUNNABLE, RUNNING, SLEEPING, EXITED }
