/** `sip:+14155550123@voxgate.sip.twilio.com;transport=udp` → `+14155550123`; null without a user part. */
export function sipUser(uri: string): string | null {
  return /^sips?:([^@;]+)@/i.exec(uri)?.[1] ?? null;
}

/**
 * The host of a SIP URI, lower case (`sip:desk@PBX.example.com:5060;x=y` → `pbx.example.com`): which
 * PBX a SIP number belongs to, and which one a SIP call came from.
 */
export function sipHostOf(uri: string): string | null {
  return /^sips?:(?:[^@]*@)?([^:;>?]+)/i.exec(uri)?.[1]?.toLowerCase() ?? null;
}
