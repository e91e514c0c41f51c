/** A text's statuses (docs/sms.md): queued and sent move on; the others are final. */
export const TEXT_STATUSES = ["queued", "sent", "delivered", "undelivered", "failed", "received"] as const;
export type TextStatus = (typeof TEXT_STATUSES)[number];

/** How far along a text is: a status never moves back, and nothing moves a final one. */
const RANK: Readonly<Record<TextStatus, number>> = {
  queued: 0,
  sent: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
  received: 2,
};

export const isFinalTextStatus = (status: TextStatus): boolean => RANK[status] === 2;

/** The statuses a text in `to` may come from: those strictly behind it (a final one from none). */
export function textStatusesBefore(to: TextStatus): TextStatus[] {
  return TEXT_STATUSES.filter((status) => RANK[status] < RANK[to]);
}
