/** Placeholder: this module is filled by a later issue. */
package dev.pvtlb.hypervisors;
