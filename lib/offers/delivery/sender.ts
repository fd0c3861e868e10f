/**
 * One webhook attempt: the body signed per the Standard Webhooks specification (HMAC-SHA256 of
 * `id.timestamp.body` with the secret's bytes, as the `standardwebhooks` package signs, so it and
 * any of its ports verify it), POSTed with a deadline through the
 * address guard. Any 2xx is a success; anything else (3xx included: redirects are not followed, so
 * a redirect cannot lead the request elsewhere), a timeout or a connection failure is a failure.
 */
import http from "node:http";
import https from "node:https";
import { createHmac } from "node:crypto";
import { AddressNotAllowedError, checkLiteralAddress, guardedLookup, type AddressPolicy } from "./address-guard";

export interface SignedMessage {
  /** The `webhook-id`: the event's id (the same on every attempt). */
  id: string;
  /** The JSON body, exactly as signed. */
  body: string;
  /** `webhook-timestamp`: when this attempt was signed. */
  timestamp: Date;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
}

/**
 * The `webhook-signature` value: one `v1,<base64>` per secret, space-separated. Signed with
 * node:crypto rather than the package's own pure-JavaScript SHA-256, which cost about 17 µs per
 * signature against 3 here (a 500-byte body), on every delivery.
 */
export function signatureHeader(secrets: string[], message: SignedMessage): string {
  const signed = `${message.id}.${Math.floor(message.timestamp.getTime() / 1000)}.${message.body}`;
  return secrets.map((secret) => `v1,${createHmac("sha256", secretKey(secret)).update(signed).digest("base64")}`).join(" ");
}

/** The key a `whsec_…` secret stands for: the bytes of its base64 (the prefix is optional, as in the package). */
function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

/** Bytes of an answer read before it is dropped (the body is not kept; reading lets the socket be reused). */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface Sender {
  send(url: string, secrets: string[], message: SignedMessage, signal?: AbortSignal): Promise<AttemptResult>;
  close(): void;
}

export function createSender(options: { policy: AddressPolicy; timeoutMs: number; userAgent?: string; maxSockets?: number }): Sender {
  const lookup = guardedLookup(options.policy);
  // Keep-alive: at the claims rate, a connection per delivery would cost more than the delivery.
  // Sockets per host: as many as the caller has attempts in flight, so an attempt never waits in the
  // agent with its deadline running (several endpoints may share a host).
  const maxSockets = options.maxSockets ?? 256;
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets, lookup } as http.AgentOptions),
    "https:": new https.Agent({ keepAlive: true, maxSockets, lookup } as https.AgentOptions),
  };
  const userAgent = options.userAgent ?? "offers-webhooks/1";

  function send(url: string, secrets: string[], message: SignedMessage, signal?: AbortSignal): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<AttemptResult, "latencyMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve({ ...result, latencyMs: elapsed() });
      };
      let target: URL;
      try {
        target = new URL(url);
        if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error(`${target.protocol} is not http or https`);
        checkLiteralAddress(target, options.policy);
      } catch (error) {
        // Before any timer exists: answer directly.
        resolve({ ok: false, statusCode: null, error: describeFailure(error, options.timeoutMs), latencyMs: 0 });
        return;
      }
      const client = target.protocol === "https:" ? https : http;
      let request: http.ClientRequest;
      const timer = setTimeout(() => request.destroy(new DeadlineError(options.timeoutMs)), options.timeoutMs);
      const onAbort = () => request.destroy(new Error("delivery interrupted: the service is stopping"));
      // A kept-alive socket the receiver closed while it sat idle (a server's keep-alive timeout racing
      // this attempt) fails before any answer: the receiver got nothing, so the attempt is sent once
      // more on a new connection instead of being logged as a failure and retried minutes later.
      const headers = {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(message.body),
        "user-agent": userAgent,
        "webhook-id": message.id,
        "webhook-timestamp": String(Math.floor(message.timestamp.getTime() / 1000)),
        "webhook-signature": signatureHeader(secrets, message),
      };
      const post = (agent: http.Agent | false) => {
        request = client.request(target, { method: "POST", agent, lookup, headers });
        let answered = false;
        request.on("response", (response) => {
          answered = true;
          const statusCode = response.statusCode ?? 0;
          let read = 0;
          response.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) response.destroy();
          });
          const done = () => finish({ ok: statusCode >= 200 && statusCode < 300, statusCode, error: statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}` });
          response.on("end", done);
          response.on("close", done);
          response.on("error", done);
        });
        const sent = request;
        sent.on("error", (error) => {
          if (!answered && !settled && agent !== false && sent.reusedSocket && isClosedWhileIdle(error)) post(false);
          else finish({ ok: false, statusCode: null, error: describeFailure(error, options.timeoutMs) });
        });
        sent.end(message.body);
      };
      post(agents[target.protocol as "http:" | "https:"]);
      if (signal?.aborted) onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  return {
    send,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

/** The failures of a kept-alive socket the other side had closed: reset, or written to after its close. */
function isClosedWhileIdle(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "ECONNRESET" || code === "EPIPE";
}

class DeadlineError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** A short sentence for the delivery log. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof DeadlineError) return `timeout: no answer within ${timeoutMs} ms`;
  if (error instanceof AddressNotAllowedError) return `refused: ${error.message}`;
  const e = error as { code?: string; message?: string };
  switch (e.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "ETIMEDOUT":
      return "connection timed out";
  }
  if (e.code?.startsWith("ERR_TLS") || e.code?.includes("CERT")) return `TLS: ${e.message ?? e.code}`;
  return e.message ?? String(error);
}
