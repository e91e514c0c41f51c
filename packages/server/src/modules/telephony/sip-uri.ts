/**
 * `sip:+14155550123@voxgate.sip.twilio.com;transport=udp` → `+14155550123` (`%2B` escapes decoded); null
 * without a user part.
 */
export function sipUser(uri: string): string | null {
  const user = /^sips?:([^@;]+)@/i.exec(uri)?.[1];
  if (user === undefined) return null;
  try {
    return decodeURIComponent(user);
  } catch {
    return null;
  }
}

/**
 * The host of a SIP URI, lower case (`sip:desk@PBX.example.com:5060;x=y` → `pbx.example.com`): which
 * PBX a SIP number belongs to, and which one a SIP call came from.
 */
export function sipHostOf(uri: string): string | null {
  return /^sips?:(?:[^@]*@)?([^:;>?]+)/i.exec(uri)?.[1]?.toLowerCase() ?? null;
}
