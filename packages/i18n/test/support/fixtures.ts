import deBooking from "../../examples/booking/locales/de/booking.json" with { type: "json" };
import enBooking from "../../examples/booking/locales/en/booking.json" with { type: "json" };
import deCommon from "../../locales/de/common.json" with { type: "json" };
import enCommon from "../../locales/en/common.json" with { type: "json" };
import {
  createI18nEngine,
  type EngineWarning,
  type I18nEngine,
  type MissingKey,
  type SetupOptions,
} from "../../src/index.js";
import { MemoryStorage } from "./memory-storage.js";

export const common = { en: enCommon, de: deCommon };
export const booking = { en: enBooking, de: deBooking };

/** A deferred promise, to hold a sync callback open while the test looks at the screen. */
export const deferred = <T = void>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

export interface Harness {
  engine: I18nEngine;
  storage: MemoryStorage;
  warnings: EngineWarning[];
  missing: MissingKey[];
}

/** A fresh engine with the core dictionaries registered and setup done. */
export const startEngine = async (
  options: Partial<SetupOptions> & { stored?: string | null; register?: boolean } = {},
): Promise<Harness> => {
  const { stored = null, register = true, ...setup } = options;
  const engine = createI18nEngine();
  const storage = new MemoryStorage(stored);
  const warnings: EngineWarning[] = [];
  const missing: MissingKey[] = [];
  if (register) engine.registerModuleNamespace("common", common);
  await engine.setupI18n({
    storageAdapter: storage,
    onWarning: (w) => warnings.push(w),
    onMissingKey: (m) => missing.push(m),
    ...setup,
  });
  return { engine, storage, warnings, missing };
};
