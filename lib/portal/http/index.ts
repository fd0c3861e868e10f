// The portal's HTTP layer: route() for every app/api route, the one status table, the one error mapper.
export { route, publicRoute, invalidRequest, type RouteHandler, type RouteContext, type InputProblem, type RouteDoc } from "./route";
export { PortalError, forbidden, requireRole, requireAnyRole, componentNotFound, type PortalErrorCode, type PortalIssue } from "../errors";
export { GITOPS_FAILURES, OFFERS_ADMIN_FAILURES, SOURCE_CONTROL_FAILURES } from "../errors";
export { errorResponse, errorBody, json, nonJson, type Answer, type ErrorBody } from "./respond";
export { statusOf, RETRY_AFTER_SECONDS, CLIENT_CLOSED_REQUEST } from "./status";
export { MAX_BODY_BYTES } from "./input";
export { componentName, componentParams } from "./params";
export { ifMatchRequired } from "./preconditions";
