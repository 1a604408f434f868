package io.steadfast.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ChartLintTest {

    @ParameterizedTest
    @EnumSource(ChartValues.class)
    void lintsStrictlyWithoutErrorsOrWarnings(ChartValues values) {
        List<String> arguments = new ArrayList<>(List.of("lint", "--strict", Helm.CHART.toString()));
        arguments.addAll(values.helmArguments());

        Helm.Result result = Helm.require().run(arguments.toArray(String[]::new));

        assertThat(result.exitCode()).as(result.describe()).isZero();
        assertThat(result.output()).as(result.describe()).contains("0 chart(s) failed")
                .doesNotContain("[WARNING]").doesNotContain("[ERROR]");
    }
}
