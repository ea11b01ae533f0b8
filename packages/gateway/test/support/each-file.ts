// A setup file (vitest.config.ts): vitest runs it before every test file, also when the files
// of a worker share its modules, so the state support modules keep per file starts over here.
// Its afterAll is the file's first, so it runs after the file's own (hooks run in reverse).
import { afterAll } from "vitest";
import { endFile } from "./file-scope.js";

afterAll(endFile);
