import type { Transporter } from "nodemailer";

/** Sends one plain-text message; rejects when the server refuses it. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/**
 * Mail through the SMTP server of GATEWAY_SMTP_URL (smtp:// or smtps://, credentials in the
 * URL). The URL holds a password: it is never logged, and errors are reported by their code.
 */
export function smtpMailer(url: string, from: string): Mailer {
  // nodemailer (some 40 modules) loads with the first message: most processes, and every admin
  // command, never send one.
  let transport: Promise<Transporter> | undefined;
  return {
    async send({ to, subject, text }) {
      transport ??= import("nodemailer").then(({ default: mail }) => mail.createTransport(url));
      await (await transport).sendMail({ from, to, subject, text });
    },
  };
}

type Language = "en" | "de" | "id";

const TEXTS: Record<Language, Record<"invite" | "reset", { subject: string; body: string }>> = {
  en: {
    invite: {
      subject: "You are invited to Orderline ({tenant})",
      body: "You were invited to the Orderline console of {tenant}.\n\nChoose your password here (the link works once, until {expires}):\n{link}\n",
    },
    reset: {
      subject: "Reset your Orderline password ({tenant})",
      body: "Someone asked to reset the password of this account at {tenant}.\n\nChoose a new password here (the link works once, until {expires}):\n{link}\n\nIf it was not you, ignore this message; your password stays as it is.\n",
    },
  },
  de: {
    invite: {
      subject: "Einladung zu Orderline ({tenant})",
      body: "Sie wurden zur Orderline-Konsole von {tenant} eingeladen.\n\nWählen Sie hier Ihr Passwort (der Link gilt einmal, bis {expires}):\n{link}\n",
    },
    reset: {
      subject: "Orderline-Passwort zurücksetzen ({tenant})",
      body: "Jemand möchte das Passwort dieses Kontos bei {tenant} zurücksetzen.\n\nWählen Sie hier ein neues Passwort (der Link gilt einmal, bis {expires}):\n{link}\n\nWaren Sie es nicht, ignorieren Sie diese Nachricht; Ihr Passwort bleibt unverändert.\n",
    },
  },
  id: {
    invite: {
      subject: "Undangan ke Orderline ({tenant})",
      body: "Anda diundang ke konsol Orderline {tenant}.\n\nPilih kata sandi Anda di sini (tautan berlaku sekali, sampai {expires}):\n{link}\n",
    },
    reset: {
      subject: "Atur ulang kata sandi Orderline ({tenant})",
      body: "Seseorang meminta pengaturan ulang kata sandi akun ini di {tenant}.\n\nPilih kata sandi baru di sini (tautan berlaku sekali, sampai {expires}):\n{link}\n\nJika bukan Anda, abaikan pesan ini; kata sandi Anda tetap.\n",
    },
  },
};

/** The message carrying a set-password link, in the user's language (English otherwise). */
export function linkMessage(
  purpose: "invite" | "reset",
  language: string,
  values: { tenant: string; link: string; expires: string },
): { subject: string; text: string } {
  const base = language.split("-")[0] as Language;
  const text = (TEXTS[base] ?? TEXTS.en)[purpose];
  const fill = (s: string) =>
    s.replace(/\{(tenant|link|expires)\}/g, (_, k: keyof typeof values) => values[k]);
  return { subject: fill(text.subject), text: fill(text.body) };
}
