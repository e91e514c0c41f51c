import type { MemberRole } from "../auth/index.ts";
import type { MailMessage } from "../mail/index.ts";

/** What an invitation or reset email says. */
export interface LinkEmail {
  kind: "invitation" | "reset";
  to: string;
  role: MemberRole;
  accountName: string;
  /** Who made the link; null once they left the account. */
  sender: { name: string; email: string } | null;
  link: string;
  expiresAt: Date;
}

const ROLE_WORDS: Record<MemberRole, string> = {
  owner: "an owner",
  admin: "an admin",
  agent: "an agent",
};

/**
 * The email of a link: plain text and the same in simple HTML, no images, no tracking. Names come from
 * people (accounts, members): they are put on one line and cut short before reaching the subject, and
 * escaped in the HTML.
 */
export function linkEmail(email: LinkEmail): MailMessage {
  const account = oneLine(email.accountName, 80) || "a Voxgate account";
  const senderName = email.sender ? oneLine(email.sender.name, 80) || "Someone" : null;
  const sender = email.sender ? `${senderName} (${oneLine(email.sender.email, 254)})` : null;
  const expires = `${email.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const paragraphs =
    email.kind === "invitation"
      ? {
          subject: senderName
            ? `${senderName} invited you to ${account} on Voxgate`
            : `You are invited to ${account} on Voxgate`,
          opening: `${sender ?? "Someone"} invited you to join ${account} on Voxgate as ${ROLE_WORDS[email.role]}.`,
          action: "Accept the invitation and choose your password:",
          closing: `The link works once, until ${expires}. If you did not expect this invitation, ignore this email.`,
        }
      : {
          subject: `Set a new password for ${account} on Voxgate`,
          opening: `${sender ?? "An admin"} reset your password for ${account} on Voxgate: your previous password no longer works.`,
          action: "Choose a new password:",
          closing: `The link works once, until ${expires}. If you did not expect this, tell the account's owner.`,
        };
  const text = [
    "Hello,",
    "",
    paragraphs.opening,
    "",
    paragraphs.action,
    email.link,
    "",
    paragraphs.closing,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello,</p>
<p>${escapeHtml(paragraphs.opening)}</p>
<p>${escapeHtml(paragraphs.action)}<br><a href="${escapeHtml(email.link)}">${escapeHtml(email.link)}</a></p>
<p>${escapeHtml(paragraphs.closing)}</p>
</body></html>
`;
  return { to: email.to, subject: paragraphs.subject, text, html };
}

/** Control characters (CR and LF among them) and line or paragraph separators become spaces. */
function oneLine(value: string, max: number): string {
  const flat = value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}
