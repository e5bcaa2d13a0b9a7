package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.NoProgressException;
import dev.pvtlb.report.OneLine;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The {@code pvtlb} command. Exit codes: 0 success, 1 hazard found, 2 bad input, 3 internal error,
 * 4 the model made no progress (the engine's watchdog: {@link NoProgressException}). A bad input
 * or a stalled model prints one line and never a stack trace unless {@code --debug} is given.
 */
@Command(name = "pvtlb", mixinStandardHelpOptions = true, version = "pvtlb 0.1.0",
        description = "Emulates a paravirtualized guest kernel's TLB shootdowns: what a flush design costs, and whether it is safe.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success", "1:a hazard was found", "2:bad input (one line on stderr)", "3:internal error",
            "4:the model made no progress: a CPU ran steps without virtual time advancing, or one access kept faulting "
                    + "(one line naming the CPU and the kernel path)"},
        subcommands = {RunCommand.class, ScenariosCommand.class, BackendsCommand.class, ProfilesCommand.class, HostCommand.class,
            CalibrateCommand.class, ExploreCommand.class, ReplayCommand.class, BenchCommand.class,
            CompareCommand.class, DemoCommand.class, AssessCommand.class, MutantsCommand.class, SweepCommand.class, ValidateCommand.class,
            CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns the exit code (for tests and embedding). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        boolean debug = java.util.Arrays.asList(args).contains("--debug");
        String[] rest = java.util.Arrays.stream(args).filter(a -> !a.equals("--debug")).toArray(String[]::new);
        CommandLine cl = new CommandLine(new Main());
        addHelpOption(cl);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("pvtlb: " + OneLine.of(ex.getMessage()));
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> failed(ex, err, debug));
        try {
            return cl.execute(rest);
        } catch (OutOfMemoryError e) {
            err.println("pvtlb: out of Java heap: the scenario is too large for this JVM");
            return 2;
        }
    }

    /** What a command that threw prints (one line, unless {@code debug}) and the exit code it gets. */
    static int failed(Exception ex, PrintWriter err, boolean debug) {
        if (debug) {
            ex.printStackTrace(err);
        }
        if (ex instanceof ModelException || ex instanceof IllegalArgumentException) {
            err.println("pvtlb: " + OneLine.of(ex.getMessage()));
            return 2;
        }
        if (ex instanceof NoProgressException) {
            err.println("pvtlb: " + OneLine.of(ex.getMessage()));
            return 4;
        }
        if (ex instanceof java.io.IOException || ex instanceof java.io.UncheckedIOException) {
            err.println("pvtlb: I/O error: " + OneLine.of(ex.getMessage()));
            return 2;
        }
        err.println("pvtlb: internal error: " + ex.getClass().getSimpleName() + ": " + OneLine.of(ex.getMessage())
                + " (rerun with --debug for the stack trace)");
        return 3;
    }

    /** {@code -h/--help} on every subcommand, at any depth ({@code pvtlb host bench --help}). */
    private static void addHelpOption(CommandLine c) {
        for (CommandLine sub : c.getSubcommands().values()) {
            CommandLine.Model.CommandSpec spec = sub.getCommandSpec();
            if (spec.findOption("--help") == null) {
                spec.addOption(CommandLine.Model.OptionSpec.builder("-h", "--help").usageHelp(true)
                        .description("Show this help message and exit.").build());
            }
            addHelpOption(sub);
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
