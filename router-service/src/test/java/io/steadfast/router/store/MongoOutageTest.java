package io.steadfast.router.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;

/** Outages are told from refusals whether the driver's exception comes bare or translated by Spring Data. */
class MongoOutageTest {

    @Test
    void aDriverTimeoutIsAnOutage() {
        assertThat(MongoOutage.isOutage(new MongoTimeoutException("no server"))).isTrue();
    }

    @Test
    void aSocketFailureTranslatedBySpringDataIsAnOutage() {
        MongoSocketReadException socket = new MongoSocketReadException("closed", new ServerAddress());
        assertThat(MongoOutage.isOutage(new DataAccessResourceFailureException("closed", socket))).isTrue();
    }

    @Test
    void aRefusedRecordIsNotAnOutage() {
        assertThat(MongoOutage.isOutage(new DuplicateKeyException("E11000"))).isFalse();
        assertThat(MongoOutage.isOutage(new IllegalStateException("bad"))).isFalse();
    }
}
