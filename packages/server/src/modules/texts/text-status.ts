/**
 * A text's statuses (docs/sms.md): scheduled (waiting for quiet hours to end), queued and sent move
 * on; the others are final.
 */
export const TEXT_STATUSES = [
  "queued",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "received",
  "scheduled",
] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];

/** How far along a text is: a status never moves back, and nothing moves a final one. */
const RANK: Readonly<Record<TextStatus, number>> = {
  scheduled: 0,
  queued: 1,
  sent: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
  received: 3,
};

export const isFinalTextStatus = (status: TextStatus): boolean => RANK[status] === 3;

/** The statuses a text in `to` may come from: those strictly behind it (a final one from none). */
export function textStatusesBefore(to: TextStatus): TextStatus[] {
  return TEXT_STATUSES.filter((status) => RANK[status] < RANK[to]);
}
