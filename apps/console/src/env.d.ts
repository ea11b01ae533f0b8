/** Set by vite.config.ts at build time: tenant words cached by an older build are not read. */
declare const __CONSOLE_BUILD__: string;
