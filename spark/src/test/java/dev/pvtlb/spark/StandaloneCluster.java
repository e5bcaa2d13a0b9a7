package dev.pvtlb.spark;

import dev.pvtlb.study.SparkJob;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Spark standalone cluster on loopback for tests: a master and workers, each its own JVM
 * started from Spark's own main classes with this test's class path. SPARK_HOME is an empty
 * directory with a jars/ folder (the workers' executor launcher insists on one); the executors
 * get Spark and pvtlb from spark.executor.extraClassPath (see {@link #executorConf}).
 */
final class StandaloneCluster implements AutoCloseable {
    private final List<Process> procs = new ArrayList<>();
    private final Path dir;
    final String url;
    final Path masterLog;

    StandaloneCluster(Path dir, int workers) throws IOException, InterruptedException {
        this.dir = dir;
        Path home = dir.resolve("spark-home");
        Files.createDirectories(home.resolve("jars"));
        int port = freePort();
        url = "spark://127.0.0.1:" + port;
        masterLog = dir.resolve("master.log");
        procs.add(start("org.apache.spark.deploy.master.Master", masterLog, home, "--host", "127.0.0.1", "--port",
                Integer.toString(port), "--webui-port", Integer.toString(freePort())));
        for (int i = 0; i < workers; i++) {
            Path work = dir.resolve("worker-" + i);
            Files.createDirectories(work);
            procs.add(start("org.apache.spark.deploy.worker.Worker", dir.resolve("worker-" + i + ".log"), home, "--host",
                    "127.0.0.1", "--webui-port", Integer.toString(freePort()), "--cores", "1", "--memory", "1g",
                    "--work-dir", work.toString(), url));
        }
        // Readiness, not timing: wait (bounded) until the master has registered every worker.
        for (int i = 0; i < 1200; i++) {
            String log = Files.exists(masterLog) ? Files.readString(masterLog) : "";
            if (log.split("Registering worker", -1).length - 1 >= workers) {
                return;
            }
            for (Process p : procs) {
                if (!p.isAlive()) {
                    close();
                    throw new IllegalStateException("a cluster process exited early; master log:\n" + log);
                }
            }
            Thread.sleep(100);
        }
        close();
        throw new IllegalStateException("workers did not register with the master; log:\n" + Files.readString(masterLog));
    }

    /** Settings for a driver using this cluster: executors load classes from this JVM's class path. */
    List<String> executorConf() {
        return List.of("spark.executor.extraClassPath=" + System.getProperty("java.class.path"),
                "spark.executor.memory=512m", "spark.cores.max=2");
    }

    private Process start(String main, Path log, Path home, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(SparkJob.JVM_FLAGS);
        cmd.add("-Xmx512m");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main);
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("SPARK_HOME", home.toString());
        // The workers' launcher of executors asks for the Scala version; a source build would be looked for otherwise.
        pb.environment().put("SPARK_SCALA_VERSION", "2.13");
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1"); // workers and their executors bind to loopback only
        pb.environment().put("SPARK_LOCAL_DIRS", dir.resolve("local").toString());
        pb.directory(dir.toFile());
        return pb.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (int i = procs.size() - 1; i >= 0; i--) {
            Process p = procs.get(i);
            p.descendants().forEach(ProcessHandle::destroy); // the workers' executors
            p.destroy();
        }
        for (Process p : procs) {
            try {
                if (!p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        procs.clear();
    }
}
