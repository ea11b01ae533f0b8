import { defineConfig } from "vite";

// Served by the gateway at /console/ on the API's origin; `npm run dev` proxies the API to a
// gateway on :3000 so the dev server is same-origin too.
export default defineConfig({
  base: "/console/",
  // Tenant words cached by another build are not read (their keys may have changed).
  define: { __CONSOLE_BUILD__: JSON.stringify(Date.now().toString(36)) },
  build: { target: "es2022", sourcemap: true, assetsInlineLimit: 0 },
  oxc: { jsx: { runtime: "automatic" } },
  server: {
    proxy: { "/v1": "http://localhost:3000", "/api": "http://localhost:3000" },
  },
});
