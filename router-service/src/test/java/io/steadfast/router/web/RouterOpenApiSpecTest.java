package io.steadfast.router.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.steadfast.testkit.CheckedInApiSpec;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The router's OpenAPI spec is checked in as {@code docs/openapi/router.json}, so that a change of the API is a
 * visible diff. After changing the API on purpose, rewrite the file as the failure says.
 */
@RouterApiContext
class RouterOpenApiSpecTest {

    private static final CheckedInApiSpec SPEC = new CheckedInApiSpec("router-service", "router.json",
            "RouterOpenApiSpecTest");

    @Autowired
    private MockMvc mvc;

    @Test
    void servedSpecIsTheCheckedInOne() throws Exception {
        SPEC.assertServed(mvc.perform(get("/v3/api-docs")).andExpect(status().isOk()).andReturn().getResponse()
                .getContentAsString());
    }

    @Test
    void servesSwaggerUiOutsideTheApiPaths() throws Exception {
        mvc.perform(get("/swagger-ui.html")).andExpect(status().is3xxRedirection())
                .andExpect(redirectedUrl("/swagger-ui/index.html"));
        mvc.perform(get("/swagger-ui/index.html")).andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("text/html"));
    }
}
