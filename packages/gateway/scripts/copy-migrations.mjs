// tsc compiles only TypeScript; the migrations are plain SQL files that must sit beside the
// compiled store so dist/ runs on its own.
import { cpSync } from "node:fs";

cpSync(
  new URL("../src/store/migrations/", import.meta.url),
  new URL("../dist/store/migrations/", import.meta.url),
  {
    recursive: true,
  },
);
