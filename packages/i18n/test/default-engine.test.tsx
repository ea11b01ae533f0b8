import { act, render, screen } from "@testing-library/react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { expect, it } from "vitest";
import {
  changeLanguage,
  defaultEngine,
  defineEnterpriseModule,
  i18n,
  registerModuleNamespace,
  setupI18n,
} from "../src/index.js";
import {
  EnterpriseModuleProvider,
  useEnterpriseModuleTranslationContext,
} from "../src/react/index.js";
import { booking, common } from "./support/fixtures.js";
import { MemoryStorage } from "./support/memory-storage.js";

// This file is the only one touching the package-level engine; vitest gives each test file its
// own module graph, so the state stays here.
const bookingModule = defineEnterpriseModule({ translationNamespace: "booking" });

const Module = () => {
  const { t } = useEnterpriseModuleTranslationContext<typeof bookingModule>();
  return <h1>{t("header.title")}</h1>;
};
const Plain = () => {
  const { t } = useTranslation();
  return <p>{t("actions.save")}</p>;
};

it("the top-level operations drive one engine on i18next's default instance, without any provider", async () => {
  expect(i18n).toBe(i18next);
  expect(defaultEngine.i18n).toBe(i18next);
  registerModuleNamespace("common", common);
  registerModuleNamespace("booking", booking);
  await setupI18n({ storageAdapter: new MemoryStorage("en") });
  render(
    <EnterpriseModuleProvider module={bookingModule}>
      <Module />
      <Plain />
    </EnterpriseModuleProvider>,
  );
  expect(screen.getByRole("heading").textContent).toBe("Bookings");
  expect(screen.getByRole("paragraph").textContent).toBe("Save");

  await act(() => changeLanguage("de"));
  expect(screen.getByRole("heading").textContent).toBe("Buchungen");
  expect(screen.getByRole("paragraph").textContent).toBe("Speichern");
  expect(i18next.t("booking:header.title")).toBe("Buchungen");
});
