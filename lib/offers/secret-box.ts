/**
 * AES-256-GCM encryption of API keys at rest, and constant-time comparison of secrets.
 *
 * A box holds the current key (OFFERS_SECRET_KEY), which encrypts, and optionally the previous one
 * (OFFERS_SECRET_KEY_PREVIOUS), which still decrypts during a rotation of the secret key itself.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Parses OFFERS_SECRET_KEY: 64 hex characters, or base64/base64url of 32 bytes. */
export function parseSecretKey(value: string, name = "OFFERS_SECRET_KEY"): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  const decoded = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (decoded.length === 32) return decoded;
  throw new Error(`${name} must be 32 bytes: 64 hex characters or base64 of 32 bytes`);
}

/** A stored value that none of the box's keys can open: the service runs with the wrong secret key. */
export class SecretKeyMismatchError extends Error {
  constructor() {
    super("a stored API key cannot be decrypted with OFFERS_SECRET_KEY (nor OFFERS_SECRET_KEY_PREVIOUS)");
  }
}

/** The constant whose HMAC under a key is that key's check value (stored once in offers_settings). */
const CHECK_CONSTANT = "offers-secret-key-check/v1";

/** Identifies a key without revealing it: HMAC-SHA-256 of a constant under the key, base64url. */
export function secretKeyCheckValue(key: Buffer): string {
  return createHmac("sha256", key).update(CHECK_CONSTANT).digest("base64url");
}

const asKey = (key: Buffer | string, name: string) => {
  const buffer = typeof key === "string" ? parseSecretKey(key, name) : key;
  if (buffer.length !== 32) throw new Error("AES-256-GCM needs a 32-byte key");
  return buffer;
};

export class SecretBox {
  private readonly key: Buffer;
  private readonly previous: Buffer | undefined;

  constructor(key: Buffer | string, previous?: Buffer | string) {
    this.key = asKey(key, "OFFERS_SECRET_KEY");
    this.previous = previous ? asKey(previous, "OFFERS_SECRET_KEY_PREVIOUS") : undefined;
  }

  /** Check value of the key that encrypts. */
  get checkValue(): string {
    return secretKeyCheckValue(this.key);
  }

  /** Check value of the previous key, when one is set. */
  get previousCheckValue(): string | undefined {
    return this.previous ? secretKeyCheckValue(this.previous) : undefined;
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [iv, tag, body].map((b) => b.toString("base64url")).join(".");
  }

  /** Opens a sealed value with the current key, else the previous one; throws SecretKeyMismatchError. */
  decrypt(sealed: string): string {
    return this.open(sealed).plain;
  }

  /** Like decrypt, and says which key opened it. */
  open(sealed: string): { plain: string; withPrevious: boolean } {
    const plain = openWith(this.key, sealed);
    if (plain !== null) return { plain, withPrevious: false };
    const old = this.previous ? openWith(this.previous, sealed) : null;
    if (old !== null) return { plain: old, withPrevious: true };
    throw new SecretKeyMismatchError();
  }
}

function openWith(key: Buffer, sealed: string): string | null {
  const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
  } catch {
    // GCM authentication failed: another key sealed it (or it was altered).
    return null;
  }
}

/** Compares two secrets in time independent of where they differ (and of their lengths). */
export function constantTimeEqual(a: string, b: string): boolean {
  const da = createHash("sha256").update(a, "utf8").digest();
  const db = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}
