import { useEnterpriseModuleTranslationContext } from "@orderline/i18n/react";
import { type FormEvent, useEffect, useState } from "react";
import { ApiError } from "../lib/api.js";
import { problemText } from "../lib/problem-text.js";
import type { teamModule } from "../modules.js";
import { useSession } from "../session.js";

type Policy = "nobody" | "admins" | "everyone";
const POLICIES: readonly Policy[] = ["nobody", "admins", "everyone"];

/**
 * The Team page's control (admins): whom the tenant requires two-step sign-in of. Whoever it
 * applies to without it set up is sent to the set-up at their next request.
 */
export const TwoFactorPolicy = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof teamModule>();
  const { api } = useSession();
  const [policy, setPolicy] = useState<Policy | null>(null);
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ error: boolean; text: string } | null>(null);

  useEffect(() => {
    void api
      .request<{ data: { required_for: Policy } }>("GET", "/v1/tenant/two-factor-policy")
      .then(({ body }) => setPolicy(body.data.required_for))
      .catch((failure: unknown) => setSaid({ error: true, text: problemText(failure, t) }));
  }, [api, t]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = String(new FormData(event.currentTarget).get("required_for")) as Policy;
    setBusy(true);
    setSaid(null);
    try {
      const { body } = await api.request<{ data: { required_for: Policy } }>(
        "PUT",
        "/v1/tenant/two-factor-policy",
        { body: { required_for: chosen } },
      );
      setPolicy(body.data.required_for);
      setSaid({ error: false, text: t("twoFactorPolicy.saved") });
      // The admin may now be one who must set it up: a call tells (the set-up page shows then).
      await api.request("GET", "/v1/tenant/two-factor-policy").catch(() => undefined);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setSaid({ error: true, text: problemText(failure, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="two-factor-policy-title" className="partner">
      <h2 id="two-factor-policy-title">{t("twoFactorPolicy.title")}</h2>
      <p>{t("twoFactorPolicy.intro")}</p>
      {policy && (
        <form onSubmit={save} className="stack">
          <label htmlFor="two-factor-policy">{t("twoFactorPolicy.label")}</label>
          <select id="two-factor-policy" name="required_for" defaultValue={policy}>
            {POLICIES.map((value) => (
              <option key={value} value={value}>
                {t(`twoFactorPolicy.${value}`)}
              </option>
            ))}
          </select>
          <p className="buttons">
            <button type="submit" disabled={busy}>
              {busy ? t("twoFactorPolicy.saving") : t("twoFactorPolicy.save")}
            </button>
          </p>
        </form>
      )}
      {said && (
        <p
          className={said.error ? "notice error" : "notice info"}
          role={said.error ? "alert" : "status"}
        >
          {said.text}
        </p>
      )}
    </section>
  );
};
