package io.steadfast.benchmarks;

import io.steadfast.runtime.dataplane.DataPlane;
import io.steadfast.runtime.dataplane.DataPlaneConfig;
import io.steadfast.runtime.host.HostRuntime;
import io.steadfast.runtime.operator.OperatorRegistry;
import io.steadfast.runtime.plan.HostId;
import io.steadfast.runtime.task.TaskSettings;
import io.steadfast.runtime.topology.TopologyId;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import tools.jackson.databind.json.JsonMapper;

/**
 * A bare host in its own JVM for benchmarks, driven by one-line commands on stdin and answering on stdout:
 * {@code DEPLOY <json>}, {@code REPORT}, {@code LATENCY} (and reset), {@code CHECKPOINTS} (what its tasks
 * snapshotted, and reset), {@code DATAPLANE}, {@code CANCEL <topology>}, {@code EXIT}.
 * It prints {@code ENDPOINT <data endpoint>} when ready.
 */
public final class BenchmarkHostMain {

    private BenchmarkHostMain() {
    }

    public static void main(String[] args) throws Exception {
        String hostId = args.length > 0 ? args[0] : "bench-host-b";
        JsonMapper json = JsonMapper.builder().build();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        CheckpointTally checkpoints = new CheckpointTally();
        CountingLogSink shipped = new CountingLogSink();
        try (HostRuntime host = new HostRuntime(new HostId(hostId), OperatorRegistry.load(),
                DataPlane.start(DataPlaneConfig.defaults(), shipped), TaskSettings.defaults(), Clock.systemUTC(),
                checkpoints)) {
            out.println("ENDPOINT " + host.dataEndpoint());
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("DEPLOY ")) {
                    DeployCommand command = json.readValue(line.substring(7), DeployCommand.class);
                    host.deploy(command.plan(), command.placement().toPlacement());
                    out.println("OK");
                } else if (line.equals("REPORT")) {
                    out.println("REPORT " + json.writeValueAsString(host.taskReports()));
                } else if (line.equals("LATENCY")) {
                    long[] windows = LatencyRecorder.worstPerWindow();
                    Histogram histogram = LatencyRecorder.drain(BenchmarkOperators.nowMicros());
                    Map<String, Object> latency = new LinkedHashMap<>();
                    latency.put("count", histogram.getTotalCount());
                    latency.put("meanMicros", histogram.getMean());
                    latency.put("p50Micros", histogram.getValueAtPercentile(50));
                    latency.put("p99Micros", histogram.getValueAtPercentile(99));
                    latency.put("maxMicros", histogram.getMaxValue());
                    latency.put("p999Micros", histogram.getValueAtPercentile(99.9));
                    latency.put("p90Micros", histogram.getValueAtPercentile(90));
                    StringBuilder stalls = new StringBuilder();
                    int over = 0;
                    for (int i = 0; i < windows.length; i++) {
                        if (windows[i] > 20_000) {
                            over++;
                            stalls.append(i * 100).append("ms:").append(windows[i] / 1000).append(' ');
                        }
                    }
                    latency.put("windowsOver20ms", over);
                    latency.put("stalls", stalls.toString().trim());
                    out.println("LATENCY " + json.writeValueAsString(latency));
                } else if (line.equals("CHECKPOINTS")) {
                    out.println("CHECKPOINTS " + json.writeValueAsString(checkpoints.seen()));
                    checkpoints.clear();
                } else if (line.equals("DATAPLANE")) {
                    out.println("DATAPLANE " + DataPlaneCounters.of(host.dataPlane().metrics()));
                } else if (line.startsWith("COMPLETED ")) {
                    String[] parts = line.substring(10).trim().split(" ");
                    host.checkpointCompleted(new TopologyId(parts[0]), Long.parseLong(parts[1]));
                    out.println("OK");
                } else if (line.equals("SHIPPED")) {
                    out.println("SHIPPED " + shipped.bytes());
                } else if (line.startsWith("CANCEL ")) {
                    host.cancel(new TopologyId(line.substring(7).trim()));
                    out.println("OK");
                } else if (line.equals("EXIT")) {
                    break;
                }
            }
        }
    }
}
