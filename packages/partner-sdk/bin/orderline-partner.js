#!/usr/bin/env node
// The installed `orderline-partner` command. It sits outside dist/ because npm links a bin only
// when its file exists at install time, and on a fresh clone dist/ is built after linking.
await import("../dist/cli/main.js");
