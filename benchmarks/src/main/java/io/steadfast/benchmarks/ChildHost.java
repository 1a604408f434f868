package io.steadfast.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@link BenchmarkHostMain} in a child JVM, and the line protocol to it. */
final class ChildHost implements AutoCloseable {

    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;
    private final String endpoint;

    private ChildHost(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.endpoint = expect("ENDPOINT ");
    }

    static ChildHost start(String hostId, String heap, Path log) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Transparent huge pages for the heap: this machine's memory monitor (DAMON) samples page access bits
        // every 500 ms, which stalls a process for tens of ms when its heap is mapped in 4 KiB pages.
        List<String> command = new ArrayList<>(List.of(java, "-Xmx" + heap, "-Xms" + heap,
                "-XX:+UseTransparentHugePages"));
        String extra = System.getProperty("steadfast.bench.child-jvm-args", "").trim();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), BenchmarkHostMain.class.getName(), hostId));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new ChildHost(process);
    }

    String endpoint() {
        return endpoint;
    }

    /** Sends a command and returns the payload of the answer line starting with {@code answer}. */
    synchronized String request(String command, String answer) throws IOException {
        in.println(command);
        return expect(answer);
    }

    private String expect(String prefix) throws IOException {
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
        }
        throw new IOException("child host ended before answering '" + prefix.trim() + "'; see its log");
    }

    @Override
    public void close() throws InterruptedException {
        in.println("EXIT");
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
