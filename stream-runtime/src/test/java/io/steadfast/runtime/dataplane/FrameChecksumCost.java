package io.steadfast.runtime.dataplane;

import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.topology.TopologyId;
import java.util.Random;
import java.util.zip.CRC32C;

/**
 * What the wire checksum costs, without JMH: CRC32C alone over payloads of typical frame sizes, and a DATA frame's
 * header sealed by its producer and checked by its receiver ({@link FrameCodec}), best of several timed rounds after
 * a warm-up. Not a test (no assertions, a benchmark's numbers); run it with
 * {@code java -cp stream-runtime/target/test-classes:stream-runtime/target/classes:<dependencies>
 * io.steadfast.runtime.dataplane.FrameChecksumCost}.
 */
public final class FrameChecksumCost {

    private static final int[] SIZES = {40, 400, 4 * 1024, 32 * 1024, 1024 * 1024};
    private static final long ROUND_NANOS = 200_000_000L;
    private static long sink;

    private FrameChecksumCost() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Random random = new Random(42);
        FrameCodec codec = new FrameCodec(DataPlaneConfig.DEFAULT_MAX_FRAME_BYTES);
        ChannelId channel = new ChannelId(new TopologyId("fraud-scoring"), 7);
        System.out.println("| payload | CRC32C alone | GB/s | DATA header sealed (encode) | header checked (decode) |");
        System.out.println("| --- | --- | --- | --- | --- |");
        for (int size : SIZES) {
            byte[] payload = new byte[size];
            random.nextBytes(payload);
            byte[] header = codec.encodeDataHeader(channel, 0, 1, 100, payload);
            double crc = best(rounds, () -> {
                CRC32C checksum = new CRC32C();
                checksum.update(payload, 0, payload.length);
                return checksum.getValue();
            });
            double encode = best(rounds, () -> codec.encodeDataHeader(channel, 0, 1, 100, payload).length);
            double decode = best(rounds, () -> {
                try {
                    return ((WireMessage.Data) codec.decode(header, payload)).eventCount();
                } catch (MalformedFrameException e) {
                    throw new IllegalStateException(e);
                }
            });
            System.out.printf("| %,d B | %,.0f ns | %.1f | %,.0f ns | %,.0f ns |%n", size, crc, size / crc, encode,
                    decode);
        }
        System.out.println("(checksum of the results, ignore: " + sink + ")");
    }

    /** The least nanoseconds per call of {@code work} over {@code rounds} rounds of about 200 ms, after as many. */
    private static double best(int rounds, java.util.function.LongSupplier work) {
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 2 * rounds; round++) {
            long calls = 0;
            long start = System.nanoTime();
            long elapsed;
            do {
                for (int i = 0; i < 64; i++) {
                    sink += work.getAsLong();
                }
                calls += 64;
                elapsed = System.nanoTime() - start;
            } while (elapsed < ROUND_NANOS);
            if (round >= rounds) {
                best = Math.min(best, (double) elapsed / calls);
            }
        }
        return best;
    }
}
