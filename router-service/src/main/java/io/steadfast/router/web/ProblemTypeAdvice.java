package io.steadfast.router.web;

import io.steadfast.protocol.problem.web.ProblemShapeAdvice;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The problem shape every service shares, applied to this service's answers. */
@RestControllerAdvice
class ProblemTypeAdvice extends ProblemShapeAdvice {
}
