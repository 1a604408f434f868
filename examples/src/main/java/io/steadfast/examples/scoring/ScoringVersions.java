package io.steadfast.examples.scoring;

import io.steadfast.api.operator.OperatorType;
import java.util.List;

/**
 * The three versions of the scoring operator, written differently but computing the same integer score (see
 * {@link ScoreFunction}), each with the injectable faults of {@link ScoringConfig}. Input: events with integral values,
 * such as the built-in generator's; output: one Long score per input, with the input's key and event time.
 */
public final class ScoringVersions {

    /** The direct formula. */
    public static final String FORMULA = "score-formula";
    /** A table lookup. */
    public static final String TABLE = "score-table";
    /** An iterative computation. */
    public static final String ITERATIVE = "score-iterative";

    private ScoringVersions() {
    }

    /** The operator types of the three versions, in the order formula, table, iterative. */
    public static List<OperatorType<?>> types() {
        return List.of(
                type(FORMULA, new FormulaScore(), "Scores each integral value by a direct formula"),
                type(TABLE, new TableScore(), "Scores each integral value by a table lookup"),
                type(ITERATIVE, new IterativeScore(), "Scores each integral value by an iterative computation"));
    }

    private static OperatorType<ScoringConfig> type(String name, ScoreFunction function, String description) {
        return OperatorType.processor(name, ScoringConfig.class,
                init -> new ScoringElement(name, function, init),
                description + "; injects faults: wrongFraction, throwAtInput, stallAtInput with stallMs")
                .withSharedInstance();
    }
}
