import { SMTPServer } from "smtp-server";

/** One message the receiver accepted: its envelope recipients and its decoded text. */
interface ReceivedMail {
  to: string;
  text: string;
}

/** The text of a quoted-printable mail body. */
const decoded = (text: string) =>
  text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * A real SMTP server on a free port of 127.0.0.1 that keeps what it receives: the gateway sends
 * to it as to any mail server (GATEWAY_SMTP_URL).
 */
export async function smtpReceiver(): Promise<{
  url: string;
  mails: ReceivedMail[];
  /** The mails to `address` so far. */
  to(address: string): ReceivedMail[];
  /** The set-password token in the newest mail to `address`. */
  tokenFor(address: string): string | undefined;
  close(): Promise<void>;
}> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let text = "";
      stream.on("data", (chunk) => {
        text += chunk;
      });
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(",");
        mails.push({ to, text: decoded(text) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const to = (address: string) => mails.filter((m) => m.to === address);
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    tokenFor(address) {
      const text = to(address).at(-1)?.text ?? "";
      const match = /token=(\S+)/.exec(text)?.[1];
      return match === undefined ? undefined : decodeURIComponent(match);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
