/** Studies: grids of runs and explore campaigns from a study file, run locally or as cluster tasks. */
module dev.pvtlb.study {
    requires transitive dev.pvtlb.guest;
    requires transitive dev.pvtlb.report;

    exports dev.pvtlb.study;
}
