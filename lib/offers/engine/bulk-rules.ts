/**
 * The pure rules of incident compensation in bulk: reading a list of player ids (CSV text), quoting
 * a rejected id safely, the grant id of a player in a job, and a job's result as CSV. The four-eyes
 * decision rules are those of single grants (./four-eyes).
 */
import { BULK_MAX_PLAYERS, BULK_SAMPLE_SIZE, isIdentifier } from "../contract";

export interface ParsedIdList {
  /** Valid ids, each once, in the order first listed. */
  ids: string[];
  invalid: number;
  invalidSample: Array<{ line: number; value: string }>;
  duplicates: number;
  duplicateSample: Array<{ line: number; value: string }>;
  /** More distinct valid ids than one job takes (BULK_MAX_PLAYERS). */
  tooMany: boolean;
}

/** Header cells a list may start with (they name the column, they are not ids). */
const HEADERS = new Set(["playerid", "player_id", "player", "id"]);

/** A cell as written: trimmed, and without the double quotes a spreadsheet puts around it. */
function cellValue(raw: string): string {
  const value = raw.trim();
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replaceAll('""', '"').trim() : value;
}

/** A rejected id as a report quotes it: control and non-ASCII characters escaped (NUL reads \u0000), at most 80 characters. */
export function quoteRejected(value: string): string {
  const escaped = value.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return escaped.length > 80 ? `${escaped.slice(0, 79)}…` : escaped;
}

/**
 * Reads a list of player ids: one a line or several separated by commas (CSV of one column or a
 * line of ids), an optional header `playerId`, blank cells skipped. Every other cell is an id that
 * is valid (the id rule), invalid (counted and quoted, never granted) or a repeat (counted once).
 */
export function parseIdList(text: string): ParsedIdList {
  const seen = new Set<string>();
  const ids: string[] = [];
  const result: ParsedIdList = { ids, invalid: 0, invalidSample: [], duplicates: 0, duplicateSample: [], tooMany: false };
  const lines = text.split(/\r\n|\n|\r/);
  for (let index = 0; index < lines.length; index += 1) {
    const cells = lines[index]!.split(",");
    for (const raw of cells) {
      const value = cellValue(raw);
      if (value === "") continue;
      const line = index + 1;
      if (index === 0 && ids.length === 0 && result.invalid === 0 && HEADERS.has(value.toLowerCase())) continue;
      if (!isIdentifier(value)) {
        result.invalid += 1;
        if (result.invalidSample.length < BULK_SAMPLE_SIZE) result.invalidSample.push({ line, value: quoteRejected(value) });
      } else if (seen.has(value)) {
        result.duplicates += 1;
        if (result.duplicateSample.length < BULK_SAMPLE_SIZE) result.duplicateSample.push({ line, value });
      } else {
        seen.add(value);
        ids.push(value);
      }
    }
  }
  result.tooMany = ids.length > BULK_MAX_PLAYERS;
  return result;
}

/** The grant id of a player's grant in a job: the ledger's source id, unique, so a player is granted once per job whatever runs it. */
export function bulkGrantId(jobId: string, playerId: string): string {
  return `${jobId}:${playerId}`;
}

/** One CSV field: ids and outcomes need no quoting, but a field starting like a formula is quoted and prefixed so a spreadsheet shows it as text. */
export function csvField(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n']/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

export const RESULT_CSV_HEADER = "playerId,outcome,grantId\n";

/** One line of a job's result. */
export function resultCsvLine(item: { playerId: string; outcome: string; grantId: string | null }): string {
  return `${csvField(item.playerId)},${item.outcome},${item.grantId === null ? "" : csvField(item.grantId)}\n`;
}
