import { graphql } from "../api/graphql.ts";

// Data & privacy (docs/data-governance.md): retention and the audit log.
export const DataRetentionQuery = graphql(`
  query ConsoleDataRetention {
    dataRetention { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }
  }
`);

export const SetDataRetentionMutation = graphql(`
  mutation ConsoleSetDataRetention($input: DataRetentionInput!) {
    setDataRetention(input: $input) { transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays }
  }
`);

export const AuditLogQuery = graphql(`
  query ConsoleAuditLog($after: String) {
    auditLog(first: 25, after: $after) {
      entries { id action actorKind actorId targetType targetId details ip at }
      nextCursor
    }
  }
`);

/** The whole audit log, page by page, for the "Download audit log" file. */
export const AuditLogExportQuery = graphql(`
  query ConsoleAuditLogExport($after: String) {
    auditLog(first: 100, after: $after) {
      entries { id action actorKind actorId userId targetType targetId details ip at }
      nextCursor
    }
  }
`);
