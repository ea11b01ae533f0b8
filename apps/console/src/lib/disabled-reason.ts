import type { Translate } from "./problem-text.js";

/**
 * Why an endpoint is disabled, in the user's language. The gateway stores English sentences
 * (domain/webhooks): "Disabled by tenant admin <email>." (tenant API), "Disabled by the
 * operator (admin CLI)." or "Disabled by an administrator.", and "Disabled after <time> of
 * failed deliveries." (the worker). They are recognised and said again in words; anything else
 * is the stored text as it is, marked English (`lang: "en"`).
 */
export const disabledReasonText = (reason: string, t: Translate): { text: string; lang?: "en" } => {
  const admin = /^Disabled by tenant admin (.+)\.$/.exec(reason);
  if (admin) return { text: t("webhooks:why.byAdmin", { email: admin[1] }) };
  if (/^Disabled by (the operator \(admin CLI\)|an administrator)\.$/.test(reason))
    return { text: t("webhooks:why.byOperator") };
  if (/^Disabled after .+ of failed deliveries\.$/.test(reason))
    return { text: t("webhooks:why.failing") };
  return { text: reason, lang: "en" };
};
