package io.gpupipe.simulator;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The simulator's command line: traces × policies → table on stdout, charts as PNG. */
@Command(name = "gpupipe-simulator", mixinStandardHelpOptions = true,
        description = "Replays job arrival traces through the seeds' scaling policies and gpupipe's; prints "
                + "first-job latency, p50/p95/p99 latency, late jobs, GPU instance-hours and cost.")
public final class SimulatorCommand implements Callable<Integer> {
    @Option(names = "--trace", split = ",", description = "bundled traces to run (lone, five, bursts, day, week); "
            + "default: all")
    List<String> traces = new ArrayList<>();

    @Option(names = "--csv", description = "a CSV of arrivals: timestamp[,promptChars[,maxTokens]] (ISO-8601 or "
            + "seconds); repeatable")
    List<Path> csv = new ArrayList<>();

    @Option(names = "--policy", split = ",", description = "policies (seed000, seed001, ours, ours+warm, "
            + "ours+spot); default: all")
    List<String> policies = new ArrayList<>();

    @Option(names = "--seed", defaultValue = "42", description = "random seed (traces, Spot interruptions)")
    long seed;

    @Option(names = "--set", description = "override a platform parameter, e.g. --set smallPricePerHour=1.861")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--out", defaultValue = "target/simulator", description = "directory for charts and "
            + "results.md")
    Path out;

    @Option(names = "--no-charts", description = "skip the PNG charts")
    boolean noCharts;

    @Option(names = "--cold-start", description = "instead of the traces table: the cold-start comparison (lone, "
            + "five and bursts sent to each tier; seeds, ours, ours with each lever and all), the first job stage by "
            + "stage, the goal check; writes cold-start.md and cold-start-stages.png to --out")
    boolean coldStart;

    @Option(names = "--fair-queues", description = "instead of the traces table: a quiet caller's wait behind a noisy "
            + "one (10,000 jobs at once) on a standard queue and on a fair queue; writes fair-queues.md and "
            + "fair-queues.png to --out")
    boolean fairQueues;

    @Option(names = "--capacity", description = "instead of the traces table: what each AWS resource sees at 100, "
            + "1,000 and 10,000 accepted jobs/s against its limit; writes capacity.md to --out")
    boolean capacity;

    @Option(names = "--levers", split = ",", description = "levers deployed with gpupipe's policies (wake, stream, "
            + "ready, warmpool); default: none")
    List<String> levers = new ArrayList<>();

    private final PrintStream stdout;
    private final PrintStream stderr;

    SimulatorCommand(PrintStream stdout, PrintStream stderr) {
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(new CommandLine(new SimulatorCommand(System.out, System.err)).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        Platform platform = Platform.defaults();
        for (String override : overrides) {
            platform = platform.with(override);
        }
        if (coldStart) {
            return coldStart(platform);
        }
        if (fairQueues) {
            return fairQueues();
        }
        if (capacity) {
            String markdown = CapacityTable.markdown();
            stdout.print(markdown);
            Files.createDirectories(out);
            Files.writeString(out.resolve("capacity.md"), markdown);
            return 0;
        }
        List<Policy> chosen = policies.isEmpty() ? Arrays.asList(Policy.values())
                : policies.stream().map(Policy::of).toList();
        Set<Lever> deployed = levers.isEmpty() ? EnumSet.noneOf(Lever.class)
                : EnumSet.copyOf(levers.stream().map(Lever::of).toList());
        Simulator simulator = new Simulator(platform, seed);
        List<RunResult> all = new ArrayList<>();
        for (Trace trace : traces()) {
            List<RunResult> results = new ArrayList<>();
            for (Policy policy : chosen) {
                if (trace.days() >= 1) {
                    ProgressBar bar = new ProgressBar(stderr, String.format("%-8s %-10s", trace.name(),
                            policy.label()));
                    results.add(simulator.run(trace, policy, leversFor(policy, deployed), bar));
                    bar.done();
                } else {
                    results.add(simulator.run(trace, policy, leversFor(policy, deployed)));
                }
            }
            all.addAll(results);
            if (!noCharts) {
                stderr.println("chart: " + Charts.write(out, trace.name(), results, 1000, 750));
            }
        }
        stdout.print(Report.text(all));
        if (platform.cacheHitRate() > 0) {
            stdout.print(Report.cacheSavings(all, uncached(platform, chosen, deployed), platform.cacheHitRate()));
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.md"), Report.markdown(all));
        return 0;
    }

    /** The levers apply to gpupipe's policies only (the seeds have none); a warm pool holds no Spot instances. */
    private static Set<Lever> leversFor(Policy policy, Set<Lever> levers) {
        return switch (policy) {
            case SEED_000, SEED_001 -> EnumSet.noneOf(Lever.class);
            case OURS, OURS_WARM -> levers;
            case OURS_SPOT -> levers.stream().filter(l -> l != Lever.WARM_POOL)
                    .collect(() -> EnumSet.noneOf(Lever.class), Set::add, Set::addAll);
        };
    }

    private Integer coldStart(Platform platform) throws IOException {
        ColdStartReport report = ColdStartReport.run(platform, seed);
        String markdown = report.markdown();
        stdout.print(markdown);
        Files.createDirectories(out);
        Files.writeString(out.resolve("cold-start.md"), markdown);
        if (!noCharts) {
            stderr.println("chart: " + StageChart.write(report, platform, out.resolve("cold-start-stages.png"), 1200,
                    900));
        }
        return 0;
    }

    private Integer fairQueues() throws IOException {
        FairQueueReport report = FairQueueReport.run(seed);
        String markdown = report.markdown();
        stdout.print(markdown);
        Files.createDirectories(out);
        Files.writeString(out.resolve("fair-queues.md"), markdown);
        if (!noCharts) {
            stderr.println("chart: " + report.chart(out.resolve("fair-queues.png"), 1000, 600));
        }
        return 0;
    }

    /** The same traces and policies without the result cache, for the savings table. */
    private List<RunResult> uncached(Platform platform, List<Policy> chosen, Set<Lever> deployed) {
        Simulator without = new Simulator(platform.with("cacheHitRate=0"), seed);
        List<RunResult> results = new ArrayList<>();
        for (Trace trace : traces()) {
            for (Policy policy : chosen) {
                results.add(without.run(trace, policy, leversFor(policy, deployed)));
            }
        }
        return results;
    }

    private List<Trace> traces() {
        List<Trace> bundled = Traces.bundled(seed);
        List<Trace> chosen = new ArrayList<>();
        if (traces.isEmpty() && csv.isEmpty()) {
            chosen.addAll(bundled);
        }
        for (String name : traces) {
            chosen.add(bundled.stream().filter(t -> t.name().equals(name)).findFirst()
                    .orElseThrow(() -> new CommandLine.ParameterException(new CommandLine(this),
                            "unknown trace '" + name + "' (lone, five, bursts, day, week)")));
        }
        csv.forEach(file -> chosen.add(Traces.csv(file)));
        return chosen;
    }
}
