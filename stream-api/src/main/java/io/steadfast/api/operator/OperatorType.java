package io.steadfast.api.operator;

import io.steadfast.api.PeFactory;
import io.steadfast.api.annotation.PublicEvolving;
import io.steadfast.api.source.SourceFactory;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A kind of operator a topology may name in its {@code type} field: a name, a config record the runtime binds
 * from the topology's JSON {@code config}, and either a source factory or a PE factory.
 *
 * <p>Config records are bound with unknown fields rejected; a field left out takes the value the record's
 * compact constructor gives it (so give defaults there). {@link #validator()} may reject a bound config with
 * a {@link ConfigException} that names the field.
 *
 * @param <C> the config record type
 */
@PublicEvolving
public final class OperatorType<C> {

    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");

    private final String name;
    private final OperatorRole role;
    private final Class<C> configType;
    private final SourceFactory<?, C> sourceFactory;
    private final PeFactory<?, ?, C> peFactory;
    private final Consumer<C> validator;
    private final String description;
    private final boolean sharedInstance;
    private final boolean instancePerTask;

    private OperatorType(String name, OperatorRole role, Class<C> configType, SourceFactory<?, C> sourceFactory,
                         PeFactory<?, ?, C> peFactory, Consumer<C> validator, String description,
                         boolean sharedInstance, boolean instancePerTask) {
        if (!NAME.matcher(Objects.requireNonNull(name, "name")).matches()) {
            throw new IllegalArgumentException("Operator type name '" + name
                    + "' is invalid: use lowercase letters, digits and dashes, starting with a letter");
        }
        this.name = name;
        this.role = role;
        this.configType = Objects.requireNonNull(configType, "configType");
        this.sourceFactory = sourceFactory;
        this.peFactory = peFactory;
        this.validator = validator;
        this.description = description;
        this.sharedInstance = sharedInstance;
        this.instancePerTask = instancePerTask;
    }

    /** A source operator type. */
    public static <O, C> OperatorType<C> source(String name, Class<C> configType, SourceFactory<O, C> factory,
                                                String description) {
        return new OperatorType<>(name, OperatorRole.SOURCE, configType, Objects.requireNonNull(factory), null,
                config -> { }, description, false, false);
    }

    /** A processor (it has inputs and may have downstream operators). */
    public static <I, O, C> OperatorType<C> processor(String name, Class<C> configType, PeFactory<I, O, C> factory,
                                                      String description) {
        return new OperatorType<>(name, OperatorRole.PROCESSOR, configType, null, Objects.requireNonNull(factory),
                config -> { }, description, false, false);
    }

    /** A sink (it has inputs and no downstream operators). */
    public static <I, C> OperatorType<C> sink(String name, Class<C> configType, PeFactory<I, Void, C> factory,
                                              String description) {
        return new OperatorType<>(name, OperatorRole.SINK, configType, null, Objects.requireNonNull(factory),
                config -> { }, description, false, false);
    }

    /** A copy that also runs {@code check} on every bound config; it throws {@link ConfigException}. */
    public OperatorType<C> withValidator(Consumer<C> check) {
        Consumer<C> combined = validator.andThen(Objects.requireNonNull(check));
        return new OperatorType<>(name, role, configType, sourceFactory, peFactory, combined, description,
                sharedInstance, instancePerTask);
    }

    /**
     * A copy whose PE keeps no keyed state, so that the runtime may serve every key with one shared instance
     * instead of one per key (the PE cannot tell the difference, and memory no longer grows with the keys).
     * Such a PE must not declare state. A processor or sink without it is {@linkplain #keyed() keyed}.
     */
    public OperatorType<C> withSharedInstance() {
        return new OperatorType<>(name, role, configType, sourceFactory, peFactory, validator, description, true,
                false);
    }

    /**
     * A copy whose PE keeps everything it knows of a key in keyed state and nothing in its fields, so that the runtime
     * creates one instance per task, when the task sees its first key, instead of one per key: the state it declares
     * reads and writes the state of the key being processed, as always, and its {@link io.steadfast.api.PeInit#key()}
     * is {@code "*"}. For a PE whose construction costs more than its state (config parsed, helpers built) and whose
     * operator sees many keys. It stays {@linkplain #keyed() keyed}.
     */
    public OperatorType<C> withInstancePerTask() {
        return new OperatorType<>(name, role, configType, sourceFactory, peFactory, validator, description, false,
                true);
    }

    /** Whether one PE instance serves all the keys of a task; see {@link #withInstancePerTask()}. */
    public boolean instancePerTask() {
        return instancePerTask;
    }

    /** Whether one PE instance serves every key; see {@link #withSharedInstance()}. */
    public boolean sharedInstance() {
        return sharedInstance;
    }

    /**
     * Whether operators of this type keep a PE instance, and its state, per key: every processor and sink not
     * made with {@link #withSharedInstance()}. All events of one key must then reach the same subtask, so a
     * topology must partition every input of such an operator by key; a source is never keyed.
     */
    public boolean keyed() {
        return role != OperatorRole.SOURCE && !sharedInstance;
    }

    public String name() {
        return name;
    }

    public OperatorRole role() {
        return role;
    }

    public Class<C> configType() {
        return configType;
    }

    public String description() {
        return description;
    }

    public Optional<SourceFactory<?, C>> sourceFactory() {
        return Optional.ofNullable(sourceFactory);
    }

    public Optional<PeFactory<?, ?, C>> peFactory() {
        return Optional.ofNullable(peFactory);
    }

    public Consumer<C> validator() {
        return validator;
    }

    @Override
    public String toString() {
        return "operator type '" + name + "' (" + role + ")";
    }
}
