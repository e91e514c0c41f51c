import { z } from "zod";
import { MANAGERS_ONLY } from "../errors.ts";
import { graphql } from "../generated/gql.ts";
import type { RestCustomerDataJobFragment, RestErasedEventLeftFragment } from "../generated/graphql.ts";
import { type RouteDefinition, route } from "../route.ts";

// Not in the legacy specification: Voxgate's own resource (docs/data-governance.md#erasure-and-export),
// under /api/user/customer-data (as /api/user/appointments), with plain ISO 8601 (UTC) times.
graphql(`
  fragment RestErasedEventLeft on ErasedEventLeft {
    id appointmentId connectionId provider externalId startsAt reason failure retriedByJobId handledAt handledBy
  }
`);

graphql(`
  fragment RestCustomerDataJob on CustomerDataJob {
    id kind state identifierKind identifierHash requestedBy stepsDone stepsTotal progress counts error
    archiveBytes downloadUrl expiresAt createdAt finishedAt
    externalEventsLeftDetails { ...RestErasedEventLeft }
  }
`);

const instant = z.iso
  .datetime()
  .meta({ description: "UTC, ISO 8601", examples: ["2027-01-04T09:00:00.000Z"] });

const eventLeftSchema = z.object({
  id: z.int(),
  appointment_id: z.int().meta({ description: "The appointment, kept anonymised" }),
  connection_id: z.int().meta({ description: "The calendar connection (possibly deleted since)" }),
  provider: z.enum(["calcom", "caldav", "google", "microsoft"]),
  external_id: z.string().meta({ description: "The provider's id of the event (CalDAV: its URL)" }),
  starts_at: instant,
  reason: z.enum(["PROVIDER_CANNOT_EDIT", "CONNECTION_DELETED", "CONNECTION_REFUSED", "PROVIDER_FAILED"]),
  failure: z
    .string()
    .nullable()
    .meta({ description: "The calendar's failure code (e.g. timeout, revoked), when it failed" }),
  retried_by_job_id: z.int().nullable().meta({ description: "A later erasure that tried it again" }),
  handled_at: instant.nullable().meta({ description: "When it was marked erased by hand" }),
  handled_by: z.string().nullable().meta({ description: "user:<id>" }),
});

const jobSchema = z.object({
  id: z.int(),
  kind: z.enum(["export", "erase"]),
  state: z.enum(["pending", "running", "done", "failed"]),
  identifier_kind: z.enum(["phone", "email", "customer_id"]),
  identifier_hash: z
    .string()
    .meta({ description: "SHA-256 of the normalised identifier with the account's salt" }),
  requested_by: z.string(),
  steps_done: z.int(),
  steps_total: z.int(),
  progress: z.number().meta({ description: "0 to 1" }),
  counts: z.record(z.string(), z.int()).meta({ description: "Records exported or erased, by kind" }),
  error: z.string().nullable(),
  archive_bytes: z.int().nullable(),
  download_url: z
    .string()
    .nullable()
    .meta({ description: "Exports, once done and until expires_at: GET it with the same Bearer token" }),
  expires_at: instant.nullable(),
  created_at: instant,
  finished_at: instant.nullable(),
  external_events_left: z.array(eventLeftSchema).nullable().meta({
    description:
      "Erasures: the calendar events it could not rewrite, with why; null for exports (docs/data-governance.md#calendar-events)",
  }),
});

const customerSchema = z.object({
  phone_number: z
    .string()
    .optional()
    .meta({ description: "E.164, with spaces or dashes, a 00 prefix, or national (read in `country`)" }),
  email: z.string().optional(),
  customer_id: z
    .string()
    .optional()
    .meta({ description: "A generate-reply customer identifier, or a widget conversation's id" }),
  country: z.string().optional().meta({ description: "ISO 3166 code for a national phone number" }),
});

function restEventLeft(left: RestErasedEventLeftFragment) {
  return {
    id: left.id,
    appointment_id: left.appointmentId,
    connection_id: left.connectionId,
    provider: left.provider,
    external_id: left.externalId,
    starts_at: new Date(left.startsAt).toISOString(),
    reason: left.reason,
    failure: left.failure ?? null,
    retried_by_job_id: left.retriedByJobId ?? null,
    handled_at: left.handledAt ? new Date(left.handledAt).toISOString() : null,
    handled_by: left.handledBy ?? null,
  };
}

function restJob(job: RestCustomerDataJobFragment) {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    identifier_kind: job.identifierKind,
    identifier_hash: job.identifierHash,
    requested_by: job.requestedBy,
    steps_done: job.stepsDone,
    steps_total: job.stepsTotal,
    progress: job.progress,
    counts: job.counts,
    error: job.error ?? null,
    archive_bytes: job.archiveBytes ?? null,
    download_url: job.downloadUrl ?? null,
    expires_at: job.expiresAt ? new Date(job.expiresAt).toISOString() : null,
    created_at: new Date(job.createdAt).toISOString(),
    finished_at: job.finishedAt ? new Date(job.finishedAt).toISOString() : null,
    external_events_left: job.externalEventsLeftDetails?.map(restEventLeft) ?? null,
  };
}

const input = (body: Record<string, unknown>) => ({
  input: {
    phoneNumber: body.phone_number,
    email: body.email,
    customerId: body.customer_id,
    country: body.country,
  },
});

const jobResponse = (description: string) => ({
  status: 202,
  description,
  schema: z.object({ message: z.string(), data: jobSchema }),
});

const requestErrors = {
  403: MANAGERS_ONLY,
  422: "Not exactly one of phone_number, email and customer_id, or one that is not valid",
  429: "Too many exports and erasures under way for the account",
};

export const customerDataRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/user/customer-data/export",
    doc: {
      tag: "Customer data",
      summary: "Start an export of everything tied to a customer (a zip archive with the recordings)",
      body: { schema: customerSchema },
      response: jobResponse("The export job (the same job while an equal one is under way)"),
      errors: requestErrors,
      example: { body: { phone_number: "+14155550123" } },
    },
    operation: graphql(`
      mutation RestExportCustomerData($input: CustomerDataInput!) {
        exportCustomerData(input: $input) { ...RestCustomerDataJob }
      }
    `),
    variables: ({ body }) => input(body),
    respond: (data) => ({
      status: 202,
      body: { message: "Export started.", data: restJob(data.exportCustomerData) },
    }),
  }),
  route({
    method: "POST",
    path: "/user/customer-data/erase",
    doc: {
      tag: "Customer data",
      summary: "Start the erasure of everything tied to a customer (irreversible; leaves a tombstone)",
      body: { schema: customerSchema },
      response: jobResponse("The erasure job (the same job while an equal one is under way)"),
      errors: requestErrors,
      example: { body: { phone_number: "+14155550123" } },
    },
    operation: graphql(`
      mutation RestEraseCustomerData($input: CustomerDataInput!) {
        eraseCustomerData(input: $input) { ...RestCustomerDataJob }
      }
    `),
    variables: ({ body }) => input(body),
    respond: (data) => ({
      status: 202,
      body: { message: "Erasure started.", data: restJob(data.eraseCustomerData) },
    }),
  }),
  route({
    method: "GET",
    path: "/user/customer-data/jobs/{id}",
    doc: {
      tag: "Customer data",
      summary: "An export or erasure job with its progress",
      pathParams: { id: "The job" },
      response: { description: "The job", schema: z.object({ data: jobSchema }) },
      errors: { 403: MANAGERS_ONLY, 404: "Unknown job, or another account's" },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      query RestCustomerDataJob($id: Int!) { customerDataJob(id: $id) { ...RestCustomerDataJob } }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: (data) => ({ body: { data: restJob(data.customerDataJob) } }),
  }),
  route({
    method: "POST",
    path: "/user/customer-data/events-left/{id}/handled",
    doc: {
      tag: "Customer data",
      summary:
        "Record that a calendar event an erasure left was erased by hand (later erasures no longer try it; a second mark keeps the first)",
      pathParams: { id: "The event left (an `external_events_left` entry's id)" },
      response: { description: "The event left, marked", schema: z.object({ data: eventLeftSchema }) },
      errors: { 403: MANAGERS_ONLY, 404: "Unknown, or another account's" },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      mutation RestMarkErasedEventLeftHandled($id: Int!) {
        markErasedEventLeftHandled(id: $id) { ...RestErasedEventLeft }
      }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: (data) => ({ body: { data: restEventLeft(data.markErasedEventLeftHandled) } }),
  }),
];
