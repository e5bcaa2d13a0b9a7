package dev.pvtlb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.run.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TracepointJfrTest {
    @Test
    void aRecordingGetsEveryTracepointAsAnEvent(@TempDir Path dir) throws Exception {
        Scenario s = Scenario.of("smt-sibling-dedup").seed(2);
        List<TraceEvent> seen = new ArrayList<>();
        Path file = dir.resolve("r.jfr");
        try (Recording r = new Recording()) {
            r.enable("dev.pvtlb.Tracepoint");
            r.start();
            try (Guest g = Guest.boot(s.guestConfig(0))) {
                g.trace().subscribe(seen::add);
                s.setUp(g);
                g.run(Long.MAX_VALUE);
            }
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.pvtlb.Tracepoint")).toList();
        long flushes = seen.stream().filter(e -> e.reason() != null).count();
        assertTrue(flushes > 0);
        assertEquals(seen.size(), events.size(), "one JFR event per tracepoint");
        assertEquals(flushes, events.stream().filter(e -> e.getString("name").equals("tlb:tlb_flush")).count());
        RecordedEvent first = events.get(0);
        assertEquals(seen.get(0).time(), first.getLong("virtualTimeNs"));
        assertEquals(seen.get(0).cpu(), first.getInt("cpu"));
    }
}
