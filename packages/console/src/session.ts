/** The signed-in session as kept in localStorage: it survives a reload until it expires. */
export interface StoredSession {
  token: string;
  expiresAt: string;
  email: string;
}

const KEY = "voxgate-console:session";

export function loadSession(storage: Storage = localStorage): StoredSession | null {
  try {
    const raw = storage.getItem(KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as StoredSession;
    if (typeof session.token !== "string" || Date.parse(session.expiresAt) <= Date.now()) {
      storage.removeItem(KEY);
      return null;
    }
    return session;
  } catch {
    return null;
  }
}

export function saveSession(session: StoredSession, storage: Storage = localStorage): void {
  storage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(storage: Storage = localStorage): void {
  storage.removeItem(KEY);
}
