package dev.pvtlb.spark;

import dev.pvtlb.study.Campaign;
import dev.pvtlb.study.ClusterExecutor;
import dev.pvtlb.study.RunRows;
import dev.pvtlb.study.SparkJob;
import dev.pvtlb.study.Study;
import dev.pvtlb.study.StudyRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Runs a study on Spark: every run of the grid is one task (one partition of one element), and
 * each task runs {@link RunRows#run} exactly as a local sweep does, so the rows are the same.
 * The rows are collected in partition order (= grid order) for runs.csv and runs.jsonl, and
 * written by Spark's own writers, CSV and Parquet, to DIR/spark/. A campaign runs each wave of
 * schedule slices as one job, so a found hazard stops the waves after it.
 */
public final class SparkStudyExecutor implements ClusterExecutor {
    /**
     * Settings applied before the user's --spark-conf: keep every socket on loopback (this is
     * also right for a cluster on one host; a real cluster overrides spark.driver.host), no UI.
     */
    static Map<String, String> defaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("spark.driver.host", "127.0.0.1");
        m.put("spark.driver.bindAddress", "127.0.0.1");
        m.put("spark.ui.enabled", "false");
        m.put("spark.executor.extraJavaOptions", String.join(" ", SparkJob.JVM_FLAGS));
        // Rows are a few hundred bytes; no shuffle happens, but keep SQL's default of 200 partitions off.
        m.put("spark.sql.shuffle.partitions", "1");
        return m;
    }

    static SparkSession session(String master, String app, Map<String, String> conf) {
        SparkSession.Builder b = SparkSession.builder().master(master).appName(app);
        Map<String, String> all = defaults();
        all.putAll(conf);
        all.forEach(b::config);
        return b.getOrCreate();
    }

    @Override
    public List<LinkedHashMap<String, Object>> sweep(Study study, List<StudyRun> runs, Path out, String master,
                                                     Map<String, String> conf) throws IOException {
        SparkSession spark = session(master, "pvtlb sweep " + study.file(), conf);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            JavaRDD<LinkedHashMap<String, Object>> rows = jsc.parallelize(runs, Math.max(1, runs.size()))
                    .map(r -> RunRows.run(study, r))
                    .cache(); // the writers below reuse the rows instead of running the study again
            List<LinkedHashMap<String, Object>> collected = new ArrayList<>(rows.collect());
            List<String> columns = RunRows.columns(collected);
            StructType schema = schema(columns, collected);
            JavaRDD<Row> table = rows.map(r -> toRow(columns, r));
            Path dir = out.toAbsolutePath().resolve("spark");
            // One output file each: the rows are small, and one file keeps the grid order readable.
            var df = spark.createDataFrame(table, schema).coalesce(1);
            df.write().mode(SaveMode.Overwrite).option("header", "true").csv(dir.resolve("csv").toString());
            df.write().mode(SaveMode.Overwrite).parquet(dir.resolve("parquet").toString());
            rows.unpersist();
            return collected;
        } finally {
            spark.stop();
        }
    }

    @Override
    public List<Campaign.Outcome> campaign(Study study, Path out, String master, Map<String, String> conf) {
        SparkSession spark = session(master, "pvtlb campaign " + study.file(), conf);
        try {
            JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            Campaign c = study.campaign();
            return c.execute(wave -> new ArrayList<>(jsc.parallelize(wave, wave.size()).map(c::run).collect()));
        } finally {
            spark.stop();
        }
    }

    /** Column types from the values: Long, Double or String (a column with no value at all is a string). */
    static StructType schema(List<String> columns, List<? extends Map<String, Object>> rows) {
        List<StructField> fields = new ArrayList<>();
        for (String c : columns) {
            DataType t = DataTypes.StringType;
            for (Map<String, Object> r : rows) {
                Object v = r.get(c);
                if (v instanceof Long) {
                    t = DataTypes.LongType;
                    break;
                } else if (v instanceof Double) {
                    t = DataTypes.DoubleType;
                    break;
                } else if (v != null) {
                    break;
                }
            }
            fields.add(DataTypes.createStructField(c, t, true));
        }
        return DataTypes.createStructType(fields);
    }

    static Row toRow(List<String> columns, Map<String, Object> r) {
        Object[] vs = new Object[columns.size()];
        for (int i = 0; i < vs.length; i++) {
            vs[i] = r.get(columns.get(i));
        }
        return RowFactory.create(vs);
    }
}
