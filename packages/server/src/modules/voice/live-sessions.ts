import type { VoicemailSessions } from "../calls/index.ts";

/** What a live session does for an answering machine: speaks the message, then runs `done`. */
interface VoicemailLeaver {
  leaveVoicemail(message: string, done: () => Promise<void>): void;
}

/**
 * This instance's live voice sessions, by call. Built before the calls module and handed to it as
 * its `VoicemailSessions` port, so an answering machine's beep reaches the session that carries the
 * call; the voice engine adds each session it starts and removes it when its stream closes.
 */
export class LiveSessions implements VoicemailSessions {
  private readonly sessions = new Map<number, VoicemailLeaver>();

  add(callId: number, session: VoicemailLeaver): void {
    this.sessions.set(callId, session);
  }

  remove(callId: number): void {
    this.sessions.delete(callId);
  }

  leaveVoicemail(callId: number, message: string, done: () => Promise<void>): boolean {
    const session = this.sessions.get(callId);
    if (!session) return false;
    session.leaveVoicemail(message, done);
    return true;
  }
}
