/** Error bodies and the probes' answer. */
import { z } from "zod";

/** JWT errors and other coded errors: {"message": code}. */
export const ErrorMessage = z.object({ message: z.string() });
export type ErrorMessage = z.infer<typeof ErrorMessage>;
export const JwtErrorCode = z.enum([
  "jwt-expired",
  "jwt-invalid",
  "jwt-missing-gameId",
  "jwt-missing-playerId",
  "jwt-not-yet-valid",
  "unknown-gameId",
]);
export type JwtErrorCode = z.infer<typeof JwtErrorCode>;
/** API key errors: the body is the bare JSON string. */
export const ApiKeyError = z.literal("invalid-api-key");
export const InvalidRequest = z.object({
  message: z.literal("invalid-request"),
  issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })),
});
export type InvalidRequest = z.infer<typeof InvalidRequest>;

export const HealthResponse = z.object({
  status: z.enum(["ok", "unavailable"]),
  database: z.enum(["ok", "unavailable"]),
  message: z.string().optional(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
