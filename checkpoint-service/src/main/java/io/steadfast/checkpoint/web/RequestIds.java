package io.steadfast.checkpoint.web;

import io.steadfast.runtime.plan.CheckpointId;
import io.steadfast.runtime.plan.ChannelId;
import io.steadfast.runtime.plan.TaskId;
import io.steadfast.runtime.topology.TopologyId;
import org.jspecify.annotations.Nullable;

/** Reads the ids in paths and bodies, rejecting bad ones with a message that names the field. */
final class RequestIds {

    private RequestIds() {
    }

    static TopologyId topology(String value) {
        if (!TopologyId.isValid(value)) {
            throw new InvalidRequestException("topology", value, "Topology id '" + value + "' is invalid: use 1-63"
                    + " lowercase letters, digits or dashes, starting with a letter or digit");
        }
        return new TopologyId(value);
    }

    static CheckpointId checkpointId(String field, @Nullable String value) {
        try {
            return new CheckpointId(Long.parseLong(value == null ? "" : value.trim()));
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(field, value, field + " '" + value
                    + "' is not a checkpoint id: use a number >= 0");
        }
    }

    static TaskId task(String field, @Nullable String value, TopologyId topology) {
        if (value == null || value.isBlank()) {
            throw taskMissing(field, value, topology);
        }
        TaskId task;
        try {
            task = TaskId.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(field, value, e.getMessage() + ", e.g. '" + topology
                    + "/operator#0'");
        }
        return taskOf(field, task, topology);
    }

    /** A task id a body gave, read by Jackson: present, and of {@code topology}. */
    static TaskId taskOf(String field, @Nullable TaskId task, TopologyId topology) {
        if (task == null) {
            throw taskMissing(field, null, topology);
        }
        if (!task.topology().equals(topology)) {
            throw new InvalidRequestException(field, task.toString(), "Task '" + task + "' belongs to topology '"
                    + task.topology() + "', not '" + topology + "'");
        }
        return task;
    }

    private static InvalidRequestException taskMissing(String field, @Nullable String value, TopologyId topology) {
        return new InvalidRequestException(field, value, field + " is missing: give the task id, e.g. '"
                + topology + "/operator#0' (URL-encoded in a path: " + topology + "%2Foperator%230)");
    }

    static ChannelId channel(String field, String value, TopologyId topology) {
        ChannelId channel;
        try {
            channel = ChannelId.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(field, value, field + ": " + e.getMessage() + "; use the form "
                    + topology + "~index@epoch, e.g. " + topology + "~3@1");
        }
        if (!channel.topology().equals(topology)) {
            throw new InvalidRequestException(field, value, "Channel " + channel + " belongs to topology '"
                    + channel.topology() + "', not '" + topology + "'");
        }
        return channel;
    }

    /** A task's incarnation: 0 for its first copy, one more for each recovery of it; absent means 0. */
    static int incarnation(String field, @Nullable String value) {
        if (value == null) {
            return 0;
        }
        return Math.toIntExact(nonNegative(field, value, Integer.MAX_VALUE, "is not an incarnation: use a number"
                + " >= 0 (0 for a task's first copy, one more for each recovery of it), or leave it out for 0"));
    }

    /** A sequence number of a channel's records, or 0 for "before the first". */
    static long sequence(String field, @Nullable String value, String example) {
        if (value == null || value.isBlank()) {
            throw new InvalidRequestException(field, value, field + " is missing: " + example);
        }
        return nonNegative(field, value, Long.MAX_VALUE, "is not a sequence number: use a number >= 0; " + example);
    }

    /** {@code value} as a number from 0 to {@code max}, or a bad request saying it {@code isNot}. */
    private static long nonNegative(String field, String value, long max, String isNot) {
        try {
            long number = Long.parseLong(value.trim());
            if (number >= 0 && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidRequestException(field, value, field + " '" + value + "' " + isNot);
    }
}
