// The portal's HTTP layer: route() for every app/api route, one error type, one error mapper.
export { route, publicRoute, invalidRequest, type RouteHandler, type RouteContext, type InputProblem } from "./route";
export { PortalError, type PortalErrorCode, type PortalIssue } from "./errors";
export { errorResponse, json, problem, DATABASE_RETRY_AFTER_SECONDS } from "./respond";
export { MAX_BODY_BYTES } from "./input";
export { componentName, componentParams } from "./params";
export * as legacy from "./legacy";
