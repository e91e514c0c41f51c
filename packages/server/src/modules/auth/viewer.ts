/** Who is calling, and with which credential. Every service call is scoped by `accountId`. */
export interface Viewer {
  userId: number;
  accountId: number;
  /** `expiresAt` is set for sessions: live streams opened with one end then. */
  credential: { kind: "apiKey" | "session"; id: number; expiresAt?: Date };
}
