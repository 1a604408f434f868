package io.steadfast.dashboard.web;

import io.steadfast.protocol.problem.web.ProblemShapeAdvice;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** The problem shape every service shares, applied to the dashboard's own answers (not to the router's, passed on). */
@RestControllerAdvice
class ProblemTypeAdvice extends ProblemShapeAdvice {
}
