/** The identifiers and scalars every shape of the API is made of. */
import { z } from "zod";

/**
 * The one rule for every identifier of this API: game, player (JWT `sub`, body fields, referral
 * ids, admin paths), offer, currency, client and instance ids. 1–200 characters of ASCII letters,
 * digits and `_ . @ + = | ~ -`, starting with a letter, digit or `_`. Why so narrow: ids travel in
 * URL paths (no `/ ? # %`, no `.` or `..` alone), in `gameId:playerId` keys and bus channels (no
 * `:`), and in logs and support screens (no spaces, controls or look-alike Unicode: `é` has two
 * spellings that look the same). UUIDs, numbers, e-mail addresses and `auth0|…` subjects fit.
 */
export const IDENTIFIER_MAX_LENGTH = 200;
export const IDENTIFIER_PATTERN = new RegExp(`^[A-Za-z0-9_][A-Za-z0-9_.@+=|~-]{0,${IDENTIFIER_MAX_LENGTH - 1}}$`);
export const IDENTIFIER_RULE = "1–200 of A–Z a–z 0–9 _ . @ + = | ~ -, starting with a letter, digit or _";
/** The same rule as people read it, for forms and pages: "A player id is " + this. */
export const IDENTIFIER_RULE_IN_WORDS =
  "1 to 200 characters: letters A to Z in either case, digits, and _ . @ + = | ~ -, starting with a letter, digit or underscore (no spaces, accents or emoji)";
export const isIdentifier = (value: unknown): value is string => typeof value === "string" && IDENTIFIER_PATTERN.test(value);
export const Identifier = z.string().regex(IDENTIFIER_PATTERN, IDENTIFIER_RULE);
/** Ids chosen by game servers (gameId, playerId, offerId, currency id). */
export const ExternalId = Identifier;

export const Timestamp = z.iso.datetime({ offset: true }).describe("ISO 8601 UTC timestamp");
/** data:image URLs of raster formats and SVG, base64 only (what the demo and inline icons use). */
const DATA_IMAGE_URL = /^data:image\/(?:png|jpeg|gif|webp|avif|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/i;
const isImageUrl = (value: string) => DATA_IMAGE_URL.test(value) || (/^https?:\/\/\S+$/i.test(value) && URL.canParse(value));
/**
 * An image the game client and the portal show: http(s), or an inline data:image. Nothing else
 * (javascript:, file:, other data:): clients put it in an img src or a link.
 */
export const ImageUrl = z
  .string()
  .max(2048, { error: "must be at most 2,048 characters" })
  .refine(isImageUrl, { error: "must be an http:// or https:// URL, or a data:image/(png|jpeg|gif|webp|avif|svg+xml);base64 URL" })
  .meta({ format: "uri", description: "http(s) URL, or data:image/(png|jpeg|gif|webp|avif|svg+xml);base64,…; at most 2,048 characters" });
