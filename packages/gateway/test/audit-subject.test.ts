import { describe, expect, it } from "vitest";
import { subjectOf } from "../src/domain/audit/subject.js";

describe("the subject of an audited change", () => {
  it("is named by the detail the action is about", () => {
    expect(subjectOf("tenant_partner_created", { client_id: "olc_1", key_id: "key_1" })).toEqual({
      type: "partner",
      id: "olc_1",
    });
    expect(
      subjectOf("tenant_partner_key_revoked", { client_id: "olc_1", key_id: "key_1" }),
    ).toEqual({ type: "partner_key", id: "key_1" });
    expect(subjectOf("webhook_event_resent", { client_id: "olc_1", endpoint_id: "we_1" })).toEqual({
      type: "webhook_endpoint",
      id: "we_1",
    });
    expect(subjectOf("user_disabled", { subject_user_id: "usr_1", email: "a@b.c" })).toEqual({
      type: "user",
      id: "usr_1",
    });
  });

  it("names vocabulary changes by namespace, language and key", () => {
    expect(subjectOf("overrides_replaced", { namespace: "common", language: "de" })).toEqual({
      type: "vocabulary",
      id: "common/de",
    });
    expect(
      subjectOf("vocabulary_word_set", { namespace: "orders", language: "en", key: "status.new" }),
    ).toEqual({ type: "vocabulary", id: "orders/en/status.new" });
  });

  it("is none when nothing names one", () => {
    expect(subjectOf("vocabulary_imported", { tenant_id: "tnt_1", files: [] })).toBeUndefined();
    expect(subjectOf("user_invited", { client_id: 42 })).toBeUndefined();
  });
});
