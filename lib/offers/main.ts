/**
 * Entry point of the offers service (`npm run dev:offers`, bundled to dist/offers/main.mjs).
 */
import { getOffersEnv } from "../env/offers";
import { EnvError } from "../env/parse";
import { flushTraces } from "../tracing";
import { createOffersLogger } from "./logger";
import { SecretKeyRefusedError } from "./secret-key";
import { startOffersService } from "./service";

async function main() {
  let env;
  try {
    env = getOffersEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createOffersLogger(env);
  const service = await startOffersService({ env, logger });

  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    logger.info({ signal }, "shutting down: draining requests");
    const force = setTimeout(() => {
      logger.error("shutdown took over 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    service
      .stop()
      .then(() => flushTraces())
      .then(
        () => {
          logger.info("offers service stopped");
          process.exit(0);
        },
        (err: unknown) => {
          logger.error({ err }, "error during shutdown");
          process.exit(1);
        },
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  // A refused secret key is the operator's to fix: the message says what and how, a stack trace adds nothing.
  console.error("offers service failed to start:", err instanceof SecretKeyRefusedError ? err.message : err);
  process.exit(1);
});
