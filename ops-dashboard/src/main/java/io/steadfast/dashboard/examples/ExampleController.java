package io.steadfast.dashboard.examples;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/examples}: the topologies the deploy page offers to start from. */
@RestController
class ExampleController {

    private final ExampleTopologies examples;

    ExampleController(ExampleTopologies examples) {
        this.examples = examples;
    }

    /** Every example as {@code {"name", "spec"}}, sorted by name. */
    @GetMapping("/api/v1/examples")
    List<ExampleTopology> examples() {
        return examples.all();
    }
}
