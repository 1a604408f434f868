package io.steadfast.router.leadership;

import java.util.Objects;

/**
 * A lease as read from its store, with the version the store gave that write: a contender that sees the same version
 * for a whole lease duration knows the holder did not renew meanwhile, whatever the holder's clock says.
 */
public record StoredLease(LeaseRecord record, String version) {

    public StoredLease {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(version, "version");
    }
}
