/**
 * AES-256-GCM encryption of API keys at rest, and constant-time comparison of secrets.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Parses OFFERS_SECRET_KEY: 64 hex characters, or base64/base64url of 32 bytes. */
export function parseSecretKey(value: string): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  const decoded = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  if (decoded.length === 32) return decoded;
  throw new Error("OFFERS_SECRET_KEY must be 32 bytes: 64 hex characters or base64 of 32 bytes");
}

export class SecretBox {
  private readonly key: Buffer;
  constructor(key: Buffer | string) {
    this.key = typeof key === "string" ? parseSecretKey(key) : key;
    if (this.key.length !== 32) throw new Error("AES-256-GCM needs a 32-byte key");
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [iv, tag, body].map((b) => b.toString("base64url")).join(".");
  }

  decrypt(sealed: string): string {
    const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
    if (!iv || !tag || !body) throw new Error("malformed sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
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
