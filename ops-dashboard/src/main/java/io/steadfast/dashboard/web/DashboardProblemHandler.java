package io.steadfast.dashboard.web;

import io.steadfast.dashboard.router.RouterRequestException;
import io.steadfast.protocol.problem.ProblemType;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns the dashboard's own refusals and failures into RFC 9457 problem details ({@code application/problem+json})
 * of the shape every service shares; Spring MVC's (405, 415, an unknown path's 404) come out the same way. What the
 * router answers is passed on unchanged and never comes here.
 */
@RestControllerAdvice
class DashboardProblemHandler extends ResponseEntityExceptionHandler {

    @ExceptionHandler
    ProblemDetail refused(DashboardRequestException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(e.reason().status(), e.getMessage());
        problem.setTitle(e.reason().title());
        problem.setProperty(ProblemType.REASON, e.reason().name());
        if (e.reason() == DashboardRequestException.Reason.INVALID_REQUEST) {
            problem.setProperty(ProblemType.ERRORS, e.errors());
        }
        return problem;
    }

    /**
     * 502: the router could not be reached ({@code ROUTER_UNREACHABLE}), or, where the dashboard reads the router's
     * answer itself (the host list behind a kill), answered an error ({@code ROUTER_ERROR_STATUS}) or something that
     * is not its API ({@code ROUTER_MALFORMED_ANSWER}). The detail names the router's URL and what to check.
     */
    @ExceptionHandler
    ProblemDetail routerFailed(RouterRequestException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_GATEWAY, e.getMessage());
        problem.setTitle(e.reason() == RouterRequestException.Reason.UNREACHABLE ? "Router unreachable"
                : "Router failed");
        problem.setProperty(ProblemType.REASON, "ROUTER_" + e.reason().name());
        return problem;
    }
}
