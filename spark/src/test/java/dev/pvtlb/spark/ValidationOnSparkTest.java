package dev.pvtlb.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.validation.Validation;
import dev.pvtlb.validation.ValidationOptions;
import dev.pvtlb.validation.ValidationOutcome;
import dev.pvtlb.validation.ValidationResult;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The validation module's API without the command line: arm64-noise, the cheapest experiment,
 * validated in a Spark task on local[1] gives the figures and verdict {@code ./pvtlb validate
 * --only arm64-noise} prints, and the same JSON as the same call on the driver.
 */
class ValidationOnSparkTest {
    private static final String ID = "arm64-noise";

    static String validate(String id) throws InterruptedException {
        return Validation.run(Validation.select(List.of(id)), ValidationOptions.defaults()).json();
    }

    @Test
    void theExperimentsAreValidationMdsTables() {
        assertEquals(List.of("concurrent-flush", "lazy-tlb", "rcu-table-free", "smt-dedup", "smt-dedup-absolute", "arm64-noise",
                "kvm-boost", "kvm-sched-yield"), Validation.ids());
        assertEquals("arm64-thunderx2", Validation.select(List.of(ID)).getFirst().machineName());
    }

    @Test
    void anExperimentRunInASparkTaskGivesTheCommandsFiguresAndVerdict() throws InterruptedException {
        ValidationOutcome here = Validation.run(Validation.select(List.of(ID)), ValidationOptions.defaults());
        ValidationResult r = here.results().getFirst();
        assertEquals(ID, r.experiment().id());
        assertEquals("fail", r.verdict());
        List<String> figures = r.figures().stream().map(f -> f.figure().name() + " " + f.figure().unit().format(f.emulated())
                + " " + f.figure().band().describe(f.figure().unit()) + " " + f.verdict()).toList();
        assertEquals(List.of("victim time with noise / alone, broadcast TLBI x1.09 [x1.10, x1.45] fail",
                "victim time with noise / alone, local TLBI x1.00 [x0.97, x1.05] pass"), figures);

        SparkSession spark = SparkStudyExecutor.session("local[1]", "pvtlb validate " + ID, Map.of());
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            List<String> json = jsc.parallelize(List.of(ID), 1).map(ValidationOnSparkTest::validate).collect();
            assertEquals(List.of(here.json()), json);
            assertTrue(json.getFirst().contains("\"verdict\": \"fail\""), json.getFirst());
        } finally {
            spark.stop();
        }
    }
}
