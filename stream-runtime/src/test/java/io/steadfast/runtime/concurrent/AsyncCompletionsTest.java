package io.steadfast.runtime.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * In fresh JVMs that see two CPUs (the common pool is created once per JVM): where {@code CompletableFuture} runs
 * async stages given no executor, with and without {@link AsyncCompletions#onThePoolEvenOnSmallMachines()}.
 */
@Timeout(60)
class AsyncCompletionsTest {

    /** Run in the child JVM: prints the thread an async stage ran on, after calling the method if asked. */
    public static final class Probe {
        public static void main(String[] args) {
            boolean pooled = args.length > 0 && args[0].equals("call") && AsyncCompletions.onThePoolEvenOnSmallMachines();
            String thread = CompletableFuture.supplyAsync(() -> Thread.currentThread().getName()).join();
            System.out.println(pooled + " " + thread);
        }
    }

    private static String probe(String... jvmAndProbeArgs) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-XX:ActiveProcessorCount=2", "-cp", System.getProperty("java.class.path")));
        command.addAll(List.of(jvmAndProbeArgs));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void onTwoCpusAsyncStagesRunOnTheCommonPoolOnceCalled() throws Exception {
        assertThat(probe(Probe.class.getName(), "call")).startsWith("true ForkJoinPool.commonPool-worker-");
    }

    @Test
    void withoutItEachStageGetsANewThreadOnTwoCpus() throws Exception {
        assertThat(probe(Probe.class.getName())).matches("false Thread-\\d+");
    }

    @Test
    void aParallelismSetByTheUserIsKept() throws Exception {
        assertThat(probe("-Djava.util.concurrent.ForkJoinPool.common.parallelism=1", Probe.class.getName(), "call"))
                .matches("false Thread-\\d+");
    }
}
