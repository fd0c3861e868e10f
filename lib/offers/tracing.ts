/**
 * Preload of the offers service (`node --import ./dist/offers/tracing.mjs dist/offers/main.mjs`,
 * see package.json start:offers): with OTEL_EXPORTER_OTLP_ENDPOINT set, it registers the ESM loader
 * hook of the instrumentations and starts tracing before main's modules (pg, http) load, so they are
 * patched; without it, it does nothing.
 */
import { register } from "node:module";
import { startTracing } from "../tracing";

if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) {
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url);
  await startTracing("offers-service");
}
