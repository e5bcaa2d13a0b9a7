package dev.pvtlb.validation;

import dev.pvtlb.profile.Profile;
import dev.pvtlb.report.Html;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Scenario;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code pvtlb validate --sensitivity}: one figure at a time, every ASSUMED figure of the runs'
 * profile is set to the low and then the high end of the range its profile states, and each
 * experiment is computed again. An experiment is reproduced only if every figure is inside its
 * band at the profile's values and at both ends of every range: "an experiment counts only if it
 * holds at both ends of every range" (validation.md, "Sensitivity"). A band is on the published
 * side of "no change" (or straddles it where the source found none), so inside the band the
 * direction holds too; absolute figures (ns) are judged the same way. For each figure the span over
 * all ends is reported with its band, and for each experiment the ASSUMED keys at whose ends some
 * figure leaves its band.
 */
public final class Sensitivity {
    /**
     * One end of one figure's range, what each experiment's figures came to there, and whether the
     * end's repetitions resolve each figure's verdict ({@link ValidationResult.Figure#resolved()}).
     */
    record End(String key, double value, Map<String, List<Double>> emulated, Map<String, List<Boolean>> resolved) {}

    /** A figure outside its band at one end. */
    record Break(String experiment, String figure, String key, double value, String emulated) {}

    private final List<ValidationResult> mid;
    private final Map<String, Profile.Range> ranges;
    private final List<End> ends;
    /** Per experiment, the ranged figures none of its runs read, so no end of theirs was run. */
    private final Map<String, List<String>> unread;
    /** Every figure outside its band at some end, in experiment and range order. */
    private final List<Break> breaks;
    /** How many ranged ASSUMED figures the runs' profiles have; more than {@link #ranges} when only some were asked for. */
    private final int assumed;

    private Sensitivity(List<ValidationResult> mid, Map<String, Profile.Range> ranges, List<End> ends,
                        Map<String, List<String>> unread, int assumed) {
        this.mid = mid;
        this.ranges = ranges;
        this.ends = ends;
        this.unread = unread;
        this.assumed = assumed;
        this.breaks = findBreaks();
    }

    /** Whether only some of the ASSUMED figures were varied ({@code --keys}): then no experiment is judged reproduced. */
    public boolean partial() {
        return ranges.size() < assumed;
    }

    /** The ASSUMED ranges of the profiles the runs use (a figure assumed in any of them). */
    static Map<String, Profile.Range> rangesOf(List<ValidationRun> runs) {
        return union(ownRanges(runs));
    }

    /** Each run's own profile's ASSUMED ranges, by run key. */
    private static Map<String, Map<String, Profile.Range>> ownRanges(List<ValidationRun> runs) {
        Map<String, Map<String, Profile.Range>> own = new LinkedHashMap<>();
        for (ValidationRun r : runs) {
            own.put(r.key(), r.build().guestConfig(0).profile().assumedRanges());
        }
        return own;
    }

    private static Map<String, Profile.Range> union(Map<String, Map<String, Profile.Range>> own) {
        Map<String, Profile.Range> ranges = new TreeMap<>();
        own.values().forEach(ranges::putAll);
        return ranges;
    }

    /** The run {@code r} with one profile figure replaced; its key says which. */
    static ValidationRun variant(ValidationRun r, String key, double value) {
        List<String> sets = new ArrayList<>(r.sets());
        sets.add(Scenario.PROFILE_FIGURE + key + "=" + Json.number(value));
        return new ValidationRun(r.key() + "@" + key + "=" + Json.number(value), r.scenario(), r.backend(), List.copyOf(sets), r.reps());
    }

    /**
     * Runs every experiment at both ends of every range ({@code parallel} runs at once). Experiments
     * run on their own machines, so a figure is varied only in the runs whose profile assumes it,
     * across that profile's own range; a run whose profile gives the figure a source stays as it is.
     * A run that never read the figure ({@link RunReport#profileKeysRead()} of its report in
     * {@code base}, the runs at the profile's values) stays as it is too: the value it would be set
     * to is never consulted, so the run would give the same bytes. Such a run is not run again.
     */
    static Sensitivity run(List<ValidationExperiment> experiments, List<ValidationResult> mid, List<ValidationRun> runs,
                           RunResults base, int parallel, ProgressBar progress, Set<String> only, Consumer<String> log)
            throws InterruptedException {
        Map<String, Map<String, Profile.Range>> own = ownRanges(runs);
        Map<String, Profile.Range> ranges = union(own);
        int assumed = ranges.size();
        if (!only.isEmpty()) {
            ranges.keySet().retainAll(only);
        }
        List<String> endKeys = new ArrayList<>();
        List<Double> endValues = new ArrayList<>();
        // Per end, the runs it changes, by the key of the run at the profile's values.
        List<Map<String, ValidationRun>> variants = new ArrayList<>();
        for (Map.Entry<String, Profile.Range> e : ranges.entrySet()) {
            double[] sides = ends(e.getValue());
            for (int side = 0; side < sides.length; side++) {
                Map<String, ValidationRun> varied = new LinkedHashMap<>();
                for (ValidationRun r : runs) {
                    ValidationRun v = at(r, own.get(r.key()), base, e.getKey(), side);
                    if (v != r) {
                        varied.put(r.key(), v);
                    }
                }
                endKeys.add(e.getKey());
                endValues.add(sides[side]);
                variants.add(varied);
            }
        }
        List<List<ValidationRun>> groups = variants.stream().map(m -> List.copyOf(m.values())).toList();
        List<End> ends = new ArrayList<>();
        // Each end is judged, and its line written, as soon as its runs (and every earlier end's) are done.
        ValidationRunner.runGroups(groups, parallel, progress, (results, g) -> {
            String key = endKeys.get(g);
            Map<String, ValidationRun> varied = variants.get(g);
            Map<String, RunReport> view = new LinkedHashMap<>();
            for (ValidationRun r : runs) {
                ValidationRun v = varied.get(r.key());
                view.put(r.key(), v == null ? base.reports().get(r.key()) : results.reports().get(v.key()));
            }
            RunResults at = new RunResults(view);
            Map<String, List<Double>> emulated = new LinkedHashMap<>();
            Map<String, List<Boolean>> resolved = new LinkedHashMap<>();
            for (ValidationExperiment x : experiments) {
                List<ValidationResult.Figure> figures = ValidationResult.of(x, at).figures();
                emulated.put(x.id(), figures.stream().map(ValidationResult.Figure::emulated).toList());
                resolved.put(x.id(), figures.stream().map(ValidationResult.Figure::resolved).toList());
                if (x.runs().stream().anyMatch(r -> varied.containsKey(r.key()))) {
                    log.accept(endLine(x, key, endValues.get(g), emulated.get(x.id())));
                }
            }
            ends.add(new End(key, endValues.get(g), emulated, resolved));
        });
        Map<String, List<String>> unread = new LinkedHashMap<>();
        for (ValidationExperiment x : experiments) {
            List<String> keys = new ArrayList<>();
            for (String key : ranges.keySet()) {
                if (x.runs().stream().noneMatch(r -> reads(base, r, key))) {
                    keys.add(key);
                }
            }
            unread.put(x.id(), List.copyOf(keys));
        }
        return new Sensitivity(mid, ranges, ends, unread, assumed);
    }

    /**
     * The line an end writes as soon as it is judged, one per experiment whose runs it changed:
     * the key and value, whether every figure is inside its band there, and each figure.
     */
    private static String endLine(ValidationExperiment x, String key, double value, List<Double> emulated) {
        List<String> parts = new ArrayList<>();
        boolean all = true;
        for (int i = 0; i < x.figures().size(); i++) {
            ValidationFigure f = x.figures().get(i);
            boolean in = holds(f, emulated.get(i));
            all &= in;
            parts.add(f.name() + " " + f.unit().format(emulated.get(i)) + (in ? "" : " (outside " + f.band().describe(f.unit()) + ")"));
        }
        return "sensitivity " + key + "=" + Json.number(value) + ": " + x.id() + (all ? " holds: " : " breaks: ") + String.join("; ", parts);
    }

    /**
     * Run {@code r} at the low (0) or high (1) end of {@code key}'s range in its own profile, or
     * {@code r} itself when that profile does not assume it or the run at the profile's values never
     * read it.
     */
    private static ValidationRun at(ValidationRun r, Map<String, Profile.Range> ownRanges, RunResults base, String key, int side) {
        Profile.Range range = ownRanges.get(key);
        if (range == null || !reads(base, r, key)) {
            return r;
        }
        double[] e = ends(range);
        return variant(r, key, e[Math.min(side, e.length - 1)]);
    }

    /** Whether run {@code r} at the profile's values read profile figure {@code key} (a report that does not say: it did). */
    private static boolean reads(RunResults base, ValidationRun r, String key) {
        RunReport report = base.reports().get(r.key());
        return report == null || report.profileKeysRead().isEmpty() || report.profileKeysRead().contains(key);
    }

    private static double[] ends(Profile.Range r) {
        return r.low() == r.high() ? new double[] {r.low()} : new double[] {r.low(), r.high()};
    }

    /** Whether {@code emulated} holds for the figure at one end of a range: inside its band, as the verdict asks. */
    static boolean holds(ValidationFigure f, double emulated) {
        return !Double.isNaN(emulated) && f.band().contains(emulated);
    }

    private List<Break> findBreaks() {
        List<Break> out = new ArrayList<>();
        for (ValidationResult r : mid) {
            List<ValidationFigure> figures = r.experiment().figures();
            for (End e : ends) {
                List<Double> values = e.emulated().get(r.experiment().id());
                for (int i = 0; i < figures.size(); i++) {
                    ValidationFigure f = figures.get(i);
                    if (!holds(f, values.get(i))) {
                        out.add(new Break(r.experiment().id(), f.name(), e.key(), e.value(), f.unit().format(values.get(i))));
                    }
                }
            }
        }
        return out;
    }

    /**
     * The ASSUMED keys at one of whose ends the experiment's verdict is not the one it has at the
     * profile's values (a pass turns to fail, or a fail to pass), in key order.
     */
    public List<String> flipKeys(ValidationResult r) {
        List<ValidationFigure> figures = r.experiment().figures();
        List<String> keys = new ArrayList<>();
        for (End e : ends) {
            if (flips(figures, r.figures(), e.emulated().get(r.experiment().id())) && !keys.contains(e.key())) {
                keys.add(e.key());
            }
        }
        return keys.stream().sorted().toList();
    }

    /**
     * The keys of {@link #flipKeys} whose every flip is within noise ({@link #flipWithinNoise}): a
     * verdict that turns only where the repetitions cannot tell either way says nothing of the range.
     */
    public List<String> flipKeysWithinNoise(ValidationResult r) {
        String id = r.experiment().id();
        List<String> keys = new ArrayList<>();
        for (String key : flipKeys(r)) {
            boolean allNoise = ends.stream().filter(e -> e.key().equals(key))
                    .filter(e -> flips(r.experiment().figures(), r.figures(), e.emulated().get(id)))
                    .allMatch(e -> flipWithinNoise(r.experiment().figures(), r.figures(), e.emulated().get(id), e.resolved().get(id)));
            if (allNoise) {
                keys.add(key);
            }
        }
        return keys;
    }

    /** Whether the verdict the counted figures give at an end ({@code values}) differs from the one at the profile's values. */
    static boolean flips(List<ValidationFigure> figures, List<ValidationResult.Figure> mid, List<Double> values) {
        boolean pass = true;
        boolean midPass = true;
        for (int i = 0; i < figures.size(); i++) {
            if (!figures.get(i).detail()) {
                pass &= holds(figures.get(i), values.get(i));
                midPass &= mid.get(i).pass();
            }
        }
        return pass != midPass;
    }

    /**
     * Whether a flip at an end is within noise: some counted figure that is in its band on one side
     * and out of it on the other is not resolved by its repetitions there or at the profile's values
     * (two standard errors of it reach past an end of its band).
     */
    static boolean flipWithinNoise(List<ValidationFigure> figures, List<ValidationResult.Figure> mid, List<Double> values,
                                   List<Boolean> resolved) {
        for (int i = 0; i < figures.size(); i++) {
            ValidationFigure f = figures.get(i);
            if (!f.detail() && holds(f, values.get(i)) != mid.get(i).pass() && (!resolved.get(i) || !mid.get(i).resolved())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reproduced: every figure, details included, in its band at the profile's values and at every
     * end of every range; never when only some ranges were varied ({@link #partial()}).
     */
    public boolean reproduced(ValidationResult r) {
        // Details count here: a pass that hangs on how the runs were pooled is not reproduced.
        return !partial() && r.figures().stream().allMatch(ValidationResult.Figure::pass)
                && breaks.stream().noneMatch(b -> b.experiment().equals(r.experiment().id()));
    }

    private int endsHeld(ValidationResult r) {
        int held = 0;
        for (End e : ends) {
            List<Double> values = e.emulated().get(r.experiment().id());
            boolean ok = true;
            for (int i = 0; i < values.size(); i++) {
                ok &= holds(r.experiment().figures().get(i), values.get(i));
            }
            held += ok ? 1 : 0;
        }
        return held;
    }

    /** The span of a figure over every end: lowest and highest emulated value. */
    private double[] span(ValidationResult r, int figure) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (End e : ends) {
            double v = e.emulated().get(r.experiment().id()).get(figure);
            if (!Double.isNaN(v)) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
        }
        return new double[] {lo, hi};
    }

    /** The section {@code pvtlb validate --sensitivity} prints after the table. */
    public void print(PrintWriter out) {
        out.printf("%nsensitivity: %s ASSUMED figures, each at the low and the high end of its range (%s), one at a time%n%n",
                partial() ? ranges.size() + " of the " + assumed : Integer.toString(ranges.size()), String.join(", ", ranges.entrySet().stream()
                        .map(e -> e.getKey() + " " + Json.number(e.getValue().low()) + ".." + Json.number(e.getValue().high())).toList()));
        String row = "%-19s %-47s %-11s %-25s %-22s %s%n";
        out.printf(row, "id", "figure", "emulated", "over all ends", "band", "at the ends");
        for (ValidationResult r : mid) {
            for (int i = 0; i < r.figures().size(); i++) {
                ValidationResult.Figure f = r.figures().get(i);
                FigureUnit u = f.figure().unit();
                double[] s = span(r, i);
                int broke = 0;
                for (End e : ends) {
                    broke += holds(f.figure(), e.emulated().get(r.experiment().id()).get(i)) ? 0 : 1;
                }
                out.printf(row, r.experiment().id(), f.figure().name(), u.format(f.emulated()), u.format(s[0]) + " .. " + u.format(s[1]),
                        f.figure().band().describe(u), broke == 0 ? "holds at every end" : "breaks at " + broke + " of " + ends.size());
            }
        }
        if (!breaks.isEmpty()) {
            out.printf("%nwhere a figure leaves its band:%n");
            for (ValidationResult r : mid) {
                for (ValidationResult.Figure f : r.figures()) {
                    List<Break> mine = breaks.stream()
                            .filter(b -> b.experiment().equals(r.experiment().id()) && b.figure().equals(f.figure().name())).toList();
                    if (mine.isEmpty()) {
                        continue;
                    }
                    if (!holds(f.figure(), f.emulated())) {
                        // Outside already at the profile's own values: the ends add nothing to read.
                        out.printf("  %s: %s is outside its band at the profile's values (%s), and at %d of %d ends%n", r.experiment().id(),
                                f.figure().name(), f.figure().unit().format(f.emulated()), mine.size(), ends.size());
                    } else {
                        out.printf("  %s: %s: %s%n", r.experiment().id(), f.figure().name(), String.join(", ", mine.stream()
                                .map(b -> b.key() + "=" + Json.number(b.value()) + " gives " + b.emulated()).toList()));
                    }
                }
            }
        }
        out.printf("%nASSUMED keys none of an experiment's runs read (their ends give its figures at the profile's values):%n");
        for (ValidationResult r : mid) {
            List<String> keys = unread.getOrDefault(r.experiment().id(), List.of());
            out.printf("  %-19s %s%n", r.experiment().id(), keys.isEmpty() ? "none" : String.join(", ", keys));
        }
        out.printf("%nASSUMED keys that flip an experiment's verdict at one of their ends:%n");
        boolean noise = false;
        for (ValidationResult r : mid) {
            List<String> within = flipKeysWithinNoise(r);
            List<String> keys = flipKeys(r).stream().map(k -> within.contains(k) ? k + ValidationResult.UNRESOLVED_MARK : k).toList();
            noise |= !within.isEmpty();
            out.printf("  %-19s %s%n", r.experiment().id(), keys.isEmpty() ? "none" : String.join(", ", keys));
        }
        if (noise) {
            out.printf("  %s within noise: where the verdict turns, the figure that turns is not resolved by its repetitions "
                    + "(at that end or at the profile's values)%n", ValidationResult.UNRESOLVED_MARK);
        }
        List<String> verdicts = new ArrayList<>();
        for (ValidationResult r : mid) {
            verdicts.add(r.experiment().id() + " " + (reproduced(r) ? "reproduced" : "not reproduced"));
        }
        if (partial()) {
            out.printf("%nreproduced: not judged, only %d of the %d ASSUMED figures were varied (--keys)%n", ranges.size(), assumed);
        } else {
            out.printf("%nreproduced (every figure in its band at the profile's values and at both ends of every range): %s%n",
                    String.join(", ", verdicts));
        }
    }

    /** The JSON section: ranges, per experiment the ends held and each break. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> rs = new LinkedHashMap<>();
        ranges.forEach((k, r) -> {
            Map<String, Object> lh = new LinkedHashMap<>();
            lh.put("low", r.low());
            lh.put("high", r.high());
            rs.put(k, lh);
        });
        m.put("ranges", rs);
        m.put("partial", partial());
        List<Object> xs = new ArrayList<>();
        for (ValidationResult r : mid) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", r.experiment().id());
            x.put("ends", ends.size());
            x.put("ends_holding", endsHeld(r));
            x.put("reproduced", reproduced(r));
            x.put("flip_keys", flipKeys(r));
            x.put("flip_keys_within_noise", flipKeysWithinNoise(r));
            x.put("unread_keys", unread.getOrDefault(r.experiment().id(), List.of()));
            List<Object> spans = new ArrayList<>();
            for (int i = 0; i < r.figures().size(); i++) {
                ValidationFigure f = r.figures().get(i).figure();
                double[] sp = span(r, i);
                Map<String, Object> sm = new LinkedHashMap<>();
                sm.put("figure", f.name());
                sm.put("unit", f.unit().symbol);
                sm.put("lowest", sp[0]);
                sm.put("highest", sp[1]);
                sm.put("band_low", f.band().lowest());
                sm.put("band_high", f.band().highest());
                spans.add(sm);
            }
            x.put("spans", spans);
            List<Object> bs = new ArrayList<>();
            for (Break b : breaks) {
                if (b.experiment().equals(r.experiment().id())) {
                    Map<String, Object> bm = new LinkedHashMap<>();
                    bm.put("figure", b.figure());
                    bm.put("profile_key", b.key());
                    bm.put("value", b.value());
                    bm.put("emulated", b.emulated());
                    bs.add(bm);
                }
            }
            x.put("breaks", bs);
            xs.add(x);
        }
        m.put("experiments", xs);
        return m;
    }

    /** An HTML section for the validate page. */
    public String toHtml() {
        StringBuilder b = new StringBuilder("<h2>Sensitivity</h2>\n<p>Every ASSUMED figure at the low and the high end of its range, "
                + "one at a time.</p>\n<table><tr><th>experiment</th><th>ends where every figure holds</th><th>reproduced</th>"
                + "<th>ASSUMED keys that can flip it</th></tr>\n");
        for (ValidationResult r : mid) {
            boolean ok = reproduced(r);
            b.append("<tr><td>").append(Html.escape(r.experiment().id())).append("</td><td>").append(endsHeld(r)).append(" of ")
                    .append(ends.size()).append("</td><td class='").append(ok ? "pass" : partial() ? "" : "fail").append("'>")
                    .append(ok ? "yes" : partial() ? "not judged (--keys)" : "no").append("</td><td>").append(Html.escape(String.join(", ", flipKeys(r))))
                    .append("</td></tr>\n");
        }
        return b.append("</table>\n").toString();
    }
}
