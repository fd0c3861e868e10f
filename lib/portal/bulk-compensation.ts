/**
 * Incident compensation in bulk in the portal: the upload (a CSV of player ids or an audience rule)
 * read from a multipart form, its preview, the job asked for, approved or rejected by a second
 * person (the offers service refuses the requester), progress, cancel and result. The offers
 * service keeps the state, so every portal instance agrees; the actor is always the signed-in user.
 * Every change is audited with its reason, before and after.
 */
import "server-only";
import { z } from "zod";
import { PortalError } from "./errors";
import { recordAudit, type AuditContext } from "./audit";
import { stringProblem } from "./http/input";
import type { PortalServices } from "./services";
import { BulkCompensationFields } from "./support-shapes";
import { AudienceRule, BULK_LIMIT_IN_WORDS, BULK_MAX_LIST_BYTES, type BulkCompensation, type BulkCompensationRequest, type BulkJobStatus } from "../offers-client/schemas";

type Services = Pick<PortalServices, "offersAdmin" | "db">;

/** The form's fields and the list (or audience) as the offers service takes them, without the actor. */
export type BulkUpload = Omit<BulkCompensationRequest, "actor">;

/** The form's text fields and some room for multipart framing, besides the list itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const FORM_FIELDS = new Set(["kind", "rewardId", "amount", "reason", "players", "audience"]);

/**
 * Reads the multipart form of a bulk compensation: fields kind, rewardId, amount, reason, and either
 * `players` (the CSV file, or its text) or `audience` (a rule as JSON). A body over the list's limit is
 * refused before it is read (413); every field is checked as any portal input is (no NUL, no lone surrogate).
 */
export async function readBulkUpload(request: Request): Promise<BulkUpload> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > BULK_MAX_LIST_BYTES + FORM_OVERHEAD_BYTES) throw new PortalError("payload-too-large", `a list of player ids holds ${BULK_LIMIT_IN_WORDS}`);
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    throw new PortalError("invalid-request", "send the compensation as a form (multipart/form-data) with kind, rewardId, amount, reason and players or audience");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new PortalError("invalid-request", "the form could not be read");
  }
  // Strict like every portal body: a field the form does not have is refused by name.
  for (const name of new Set(form.keys())) {
    if (!FORM_FIELDS.has(name)) throw new PortalError("invalid-request", `${name}: not a field of this form`, { issues: [{ path: [name], message: "not a field of this form" }] });
  }
  const text = async (name: string): Promise<string | undefined> => {
    const value = form.get(name);
    if (value === null) return undefined;
    const read = typeof value === "string" ? value : await value.text();
    if (read.length > BULK_MAX_LIST_BYTES) throw new PortalError("payload-too-large", `a list of player ids holds ${BULK_LIMIT_IN_WORDS}`);
    const problem = stringProblem(read);
    if (problem) throw new PortalError("invalid-request", `${name} ${problem}`, { issues: [{ path: [name], message: problem }] });
    return read;
  };
  const fields = BulkCompensationFields.safeParse({ kind: await text("kind"), rewardId: await text("rewardId"), amount: await text("amount"), reason: await text("reason") });
  if (!fields.success) {
    const issues = fields.error.issues.map((i) => ({ path: i.path.map(String), message: i.message }));
    throw new PortalError("invalid-request", `${issues[0]?.path.join(".") ?? "form"}: ${issues[0]?.message ?? "invalid"}`, { issues });
  }
  const list = await text("players");
  const audienceText = await text("audience");
  if ((list === undefined) === (audienceText === undefined)) throw new PortalError("invalid-request", "send either a list of player ids (players) or an audience rule (audience)", { issues: [{ path: ["players"], message: "one of players or audience is required" }] });
  if (list !== undefined) return { ...fields.data, players: { list } };
  let rule: unknown;
  try {
    rule = JSON.parse(audienceText!);
  } catch {
    throw new PortalError("invalid-request", "audience is not JSON", { issues: [{ path: ["audience"], message: "not JSON" }] });
  }
  const audience = AudienceRule.safeParse(rule);
  if (!audience.success) throw new PortalError("invalid-request", `audience: ${audience.error.issues[0]?.message ?? "invalid"}`, { issues: audience.error.issues.map((i) => ({ path: ["audience", ...i.path.map(String)], message: i.message })) });
  return { ...fields.data, players: { audience: audience.data } };
}

const describeJob = (j: BulkCompensation) =>
  `${j.preview.amount.toLocaleString("en-US")} ${j.preview.name} (${j.preview.rewardId}) to ${j.preview.players.toLocaleString("en-US")} players`;

/** What the audit entry keeps of a job (not its list: the result CSV has every player). */
const stateOf = (j: BulkCompensation) => ({
  jobId: j.jobId,
  source: j.source,
  kind: j.preview.kind,
  rewardId: j.preview.rewardId,
  amount: j.preview.amount,
  players: j.preview.players,
  totalAmount: j.preview.totalAmount,
  reason: j.reason,
  status: j.status,
  requestedBy: j.requestedBy,
  decidedBy: j.decidedBy,
  decisionReason: j.decisionReason,
  cancelledBy: j.cancelledBy,
  granted: j.progress.granted,
});

export function previewBulk(services: Services, by: AuditContext, gameId: string, upload: BulkUpload, signal?: AbortSignal) {
  return services.offersAdmin().previewBulkCompensation(gameId, { ...upload, actor: by.actor.id }, signal);
}

/** Asks for a bulk compensation (it waits for a second person); `idempotencyKey` (one per form) makes a repeated submit answer the first job. */
export async function askBulk(services: Services, by: AuditContext, gameId: string, upload: BulkUpload, idempotencyKey?: string) {
  const job = await services.offersAdmin().requestBulkCompensation(gameId, { ...upload, actor: by.actor.id }, idempotencyKey);
  await recordAudit(() => services.db(), by, {
    action: "bulk-compensation.request",
    targetType: "bulk-compensation",
    target: `${gameId}/${job.jobId}`,
    summary: `asked to grant ${describeJob(job)} of ${gameId} (waits for approval): ${job.reason}`,
    before: null,
    after: stateOf(job),
  }, "after-remote-change");
  return job;
}

const VERBS = { approve: "approved", reject: "rejected", cancel: "cancelled" } as const;

/** Approves, rejects or cancels a job as the signed-in user; the service refuses the requester's approval or rejection. */
export async function actOnBulk(services: Services, by: AuditContext, gameId: string, jobId: string, action: "approve" | "reject" | "cancel", reason?: string) {
  const admin = services.offersAdmin();
  const before = await admin.bulkCompensation(gameId, jobId);
  const job = await admin.bulkCompensationAction(gameId, jobId, action, { actor: by.actor.id, ...(reason ? { reason } : {}) });
  await recordAudit(() => services.db(), by, {
    action: `bulk-compensation.${action}`,
    targetType: "bulk-compensation",
    target: `${gameId}/${jobId}`,
    summary: `${VERBS[action]} ${job.requestedBy}'s compensation of ${describeJob(job)} of ${gameId}${reason ? `: ${reason}` : ""}`,
    before: stateOf(before),
    after: stateOf(job),
  }, "after-remote-change");
  return job;
}

export function bulkJobs(services: Services, gameId: string, query: { status?: BulkJobStatus; limit?: number }, signal?: AbortSignal) {
  return services.offersAdmin().bulkCompensations(gameId, query, signal);
}

export function bulkJob(services: Services, gameId: string, jobId: string, signal?: AbortSignal) {
  return services.offersAdmin().bulkCompensation(gameId, jobId, signal);
}

/** The result CSV as a download of the portal's own origin. */
export async function bulkResult(services: Services, gameId: string, jobId: string, signal?: AbortSignal): Promise<Response> {
  const upstream = await services.offersAdmin().bulkCompensationResult(gameId, jobId, signal);
  return new Response(upstream.body, {
    status: 200,
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${jobId}.csv"`, "Cache-Control": "no-store" },
  });
}

export const BulkJobsQuery = z.object({ status: z.enum(["pending", "rejected", "expired", "running", "done", "cancelled"]).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) });
