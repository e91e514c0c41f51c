/**
 * A real SMTP server (the `smtp-server` package) on a free 127.0.0.1 port, for email tests: it asks
 * for a user and password, receives messages whole and parses them (mailparser), and can be told to
 * refuse recipients or the sign-in, as mail servers do, with their SMTP reply codes.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The message as it came over the wire. */
  raw: string;
  parsed: ParsedMail;
}

export interface RunningSmtp {
  /** smtp://user:password@127.0.0.1:PORT */
  url: string;
  user: string;
  password: string;
  /** How the server answers from now on. */
  mode: "accept" | "refuseRecipients" | "refuseSignIn";
  received: ReceivedMail[];
  /** The next message to arrive (or the oldest one not yet taken). */
  next(): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

/** `refused`: recipients the server always refuses (550), whatever the mode. */
export async function startSmtpServer(
  options: { refused?: (address: string) => boolean } = {},
): Promise<RunningSmtp> {
  const user = "voxgate";
  const password = "s3cret-pa55word";
  const queue: ReceivedMail[] = [];
  const waiting: ((mail: ReceivedMail) => void)[] = [];
  const smtp: RunningSmtp = {
    url: "",
    user,
    password,
    mode: "accept",
    received: [],
    next() {
      const ready = queue.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => waiting.push(resolve));
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const refusal = (message: string, responseCode: number) =>
    Object.assign(new Error(message), { responseCode });
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, so no STARTTLS, and sign-in without TLS.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (smtp.mode === "refuseSignIn" || auth.username !== user || auth.password !== password) {
        callback(refusal(`Authentication failed for ${auth.username} / ${auth.password}`, 535));
        return;
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (smtp.mode === "refuseRecipients" || options.refused?.(address.address)) {
        callback(refusal(`Mailbox ${address.address} unavailable`, 550));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        void simpleParser(raw).then((parsed) => {
          const envelope = session.envelope;
          const mail: ReceivedMail = {
            envelope: {
              from: envelope.mailFrom ? envelope.mailFrom.address : "",
              to: envelope.rcptTo.map((recipient) => recipient.address),
            },
            raw,
            parsed,
          };
          smtp.received.push(mail);
          const waiter = waiting.shift();
          if (waiter) waiter(mail);
          else queue.push(mail);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  smtp.url = `smtp://${user}:${password}@127.0.0.1:${port}`;
  return smtp;
}
