package io.steadfast.dashboard.settings;

import io.steadfast.dashboard.config.DashboardProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.info.BuildProperties;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/settings}: fixed for the dashboard's life, so the page reads it once. */
@RestController
class SettingsController {

    /** Where the build left no META-INF/build-info.properties: run from an IDE without Maven, say. */
    static final String UNKNOWN_VERSION = "unknown";

    private final DashboardSettings settings;

    SettingsController(DashboardProperties properties, ObjectProvider<BuildProperties> build) {
        BuildProperties info = build.getIfAvailable();
        this.settings = new DashboardSettings(properties.routerUrl(), properties.faultInjection().enabled(), true,
                info == null || info.getVersion() == null ? UNKNOWN_VERSION : info.getVersion());
    }

    @GetMapping("/api/v1/settings")
    DashboardSettings settings() {
        return settings;
    }
}
