package io.steadfast.router.topology;

import io.steadfast.router.store.MongoOutage;
import io.steadfast.router.store.RecordsNotLoadedException;
import io.steadfast.router.store.WriteBehind;
import io.steadfast.runtime.topology.TopologyId;
import java.time.Clock;
import java.util.function.BooleanSupplier;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The topologies in memory, written through to a {@link MongoTopologyRepository} behind a {@link WriteBehind}, so
 * that MongoDB is not a single point of failure for managing what runs: reads always answer from memory; a change
 * is made in memory, then written to MongoDB, waiting at most the write timeout while MongoDB answers and not at
 * all while it is known to be down; a change MongoDB did not take is kept (the latest state per topology) and
 * retried in the background until it does. Removals are written behind the same way.
 *
 * <p>The topologies are loaded once, by {@link #load}: if MongoDB is unreachable then, the load is retried in the
 * background and, until it succeeds, this repository holds no topology and refuses changes with
 * {@link RecordsNotLoadedException} (a topology added meanwhile could take the id of a stored one). Thread-safe.
 */
public final class WriteBehindTopologyRepository implements TopologyRepository, AutoCloseable {

    private final InMemoryTopologyRepository memory = new InMemoryTopologyRepository();
    private final WriteBehind<TopologyId, DeployedTopology> writes;

    public WriteBehindTopologyRepository(MongoTopologyRepository mongo, String storeName, WriteBehind.Settings settings,
                                         Clock clock) {
        this(mongo, storeName, settings, clock, () -> true);
    }

    /** @param leading whether this router leads: a deposed one writes nothing */
    public WriteBehindTopologyRepository(MongoTopologyRepository mongo, String storeName, WriteBehind.Settings settings,
                                         Clock clock, BooleanSupplier leading) {
        this.writes = new WriteBehind<>("topologies", storeName, WriteBehind.Store.<TopologyId, DeployedTopology>of(
                mongo::all, (id, topology) -> mongo.save(topology), mongo::remove, mongo::ping, MongoOutage::isOutage)
                .writingOnlyWhile(leading, "this router no longer leads"), settings, clock);
    }

    /**
     * Loads the stored topologies into memory, now or, if MongoDB cannot be reached, in the background.
     *
     * @return whether they were loaded now
     */
    public boolean load() {
        return writes.load(stored -> stored.forEach(memory::add));
    }

    @Override
    public boolean add(DeployedTopology topology) {
        return change(() -> memory.add(topology), () -> writes.put(topology.id(), topology), true);
    }

    @Override
    public Optional<DeployedTopology> find(TopologyId id) {
        return memory.find(id);
    }

    @Override
    public List<DeployedTopology> all() {
        return memory.all();
    }

    @Override
    public boolean replace(DeployedTopology topology) {
        return change(() -> memory.replace(topology), () -> writes.put(topology.id(), topology), true);
    }

    @Override
    public boolean replaceWithoutWaiting(DeployedTopology topology) {
        return change(() -> memory.replace(topology), () -> writes.put(topology.id(), topology), false);
    }

    @Override
    public boolean remove(TopologyId id) {
        return change(() -> memory.remove(id), () -> writes.delete(id), true);
    }

    /**
     * Makes a change in memory and, if it changed anything, queues it for MongoDB, both under this object's lock
     * so that MongoDB gets a topology's states in the order memory had them; then, if {@code wait}, waits (outside
     * the lock) for the write as {@link WriteBehind#awaitWritten} does.
     */
    private boolean change(BooleanSupplier inMemory, Supplier<CompletableFuture<Void>> queueWrite, boolean wait) {
        CompletableFuture<Void> write;
        synchronized (this) {
            writes.requireLoaded();
            if (!inMemory.getAsBoolean()) {
                return false;
            }
            write = queueWrite.get();
        }
        if (wait) {
            writes.awaitWritten(write);
        }
        return true;
    }

    /** Where the writes to MongoDB stand: loaded, reachable, how many pending. */
    public WriteBehind.Status status() {
        return writes.status();
    }

    /** Runs {@code action} once the topologies are loaded (now if they are). */
    public void whenLoaded(Runnable action) {
        writes.whenLoaded(action);
    }

    /** Stops writing; changes MongoDB has not taken by then are logged and lost. */
    @Override
    public void close() {
        writes.close();
    }
}
